"""Strength of an agent against another: a match with alternating colours and openings.

Each pair of games starts from the same random opening (``--random-opening`` stones
near the centre, drawn from the pair's seed) with colours swapped, so neither the first
move nor one lucky opening decides the score. Games are split over ``--jobs``
processes. A draw counts as half a win. This is how the README's AlphaZero figures
were measured, e.g.::

    python benchmarks/alphazero_strength.py --board-size 9 --games 100 --jobs 2 \\
        "alphazero:weights=9x9,simulations=200,threads=1" "mcts:simulations=10000"
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time

from agents.head_to_head import MatchScore, play_match
from agents.specs import make_agent
from gomoku_env import GameConfig


def play_share(task: tuple[str, str, GameConfig, int, int, int]) -> MatchScore:
    """``pairs`` pairs of games from pair ``first_pair`` on, in one process."""
    first_spec, second_spec, config, first_pair, pairs, opening = task
    first = make_agent(first_spec, config, seed=first_pair)
    second = make_agent(second_spec, config, seed=10_000 + first_pair)
    return play_match(
        first, second, config, 2 * pairs, seed=first_pair, random_opening=opening
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="agent spec, e.g. alphazero:simulations=200")
    parser.add_argument("second", help="agent spec, e.g. mcts:simulations=10000")
    parser.add_argument("--board-size", type=int, default=9)
    parser.add_argument("--win-length", type=int, default=5)
    parser.add_argument("--games", type=int, default=100, help="rounded up to even")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--random-opening", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    config = GameConfig(arguments.board_size, arguments.win_length)
    pairs = math.ceil(arguments.games / 2)
    shares = [
        pairs // arguments.jobs + (k < pairs % arguments.jobs)
        for k in range(arguments.jobs)
    ]
    starts = [arguments.seed + sum(shares[:k]) for k in range(arguments.jobs)]
    tasks = [
        (
            arguments.first,
            arguments.second,
            config,
            start,
            share,
            arguments.random_opening,
        )
        for start, share in zip(starts, shares, strict=True)
        if share
    ]
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(len(tasks)) as pool:
        result = sum(pool.map(play_share, tasks), MatchScore())
    moves_each = [seconds / max(result.games, 1) for seconds in result.seconds]
    size = config.board_size
    print(f"{arguments.first} vs {arguments.second} on {size}x{size}")
    print(
        f"games {result.games}: {result.wins} W / {result.draws} D / "
        f"{result.losses} L, "
        f"score {result.score:.3f} (first as black: {result.wins_as_black} wins of "
        f"{result.games_as_black}); seconds per game {moves_each[0]:.1f} vs "
        f"{moves_each[1]:.1f}; wall {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
