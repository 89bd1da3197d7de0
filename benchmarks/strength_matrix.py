"""Strength matrix: agents play each other with alternating colours and varied openings.

Each pairing plays ``--games`` games on the PettingZoo env; game ``i`` starts from a
random opening of ``--random-opening`` stones drawn with seed ``seed + i // 2``, and the
two games of a pair swap colours on the same opening, so neither agent profits from an
easy opening. Prints, for each pairing, wins / losses / draws of the first agent and its
score ((wins + draws / 2) / games).

    python benchmarks/strength_matrix.py --pair alphabeta:time=1 heuristic --games 30
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from agents.game import play_game
from agents.specs import make_agent
from gomoku_env.config import GameConfig, Rule


@dataclass(frozen=True)
class MatchArgs:
    """Command-line settings.

    pairs: (first, second) agent specs; the matrix reports the first agent's results.
    games: games per pairing (even: each opening is played with both colours).
    board_size: side of the board.
    rule: the rules.
    random_opening: random stones near the centre before the agents move.
    seed: seed of the openings and of the agents.
    """

    pairs: tuple[tuple[str, str], ...]
    games: int
    board_size: int
    rule: Rule
    random_opening: int
    seed: int


def play_pairing(args: MatchArgs, first: str, second: str) -> tuple[int, int, int]:
    """(wins, losses, draws) of ``first`` against ``second``."""
    config = GameConfig(board_size=args.board_size, rule=args.rule)
    agents = {spec: make_agent(spec, config) for spec in (first, second)}
    wins = losses = draws = 0
    for game in range(args.games):
        black, white = (first, second) if game % 2 == 0 else (second, first)
        outcome = play_game(
            agents[black],
            agents[white],
            config,
            seeds=(args.seed + game, args.seed + game + 1),
            random_opening=args.random_opening,
            opening_seed=args.seed + game // 2,
        )
        winner = {"black": black, "white": white}.get(outcome.winner)
        wins += winner == first
        losses += winner == second
        draws += winner is None
        print(
            f"  game {game + 1}: black {black} vs white {white} -> {winner}", flush=True
        )
    return wins, losses, draws


def parse_args() -> MatchArgs:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pair",
        nargs=2,
        action="append",
        metavar=("FIRST", "SECOND"),
        required=True,
        help="two agent specs (repeat for more pairings)",
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--board-size", type=int, default=15)
    parser.add_argument("--rule", type=Rule.parse, default=Rule.FREESTYLE)
    parser.add_argument("--random-opening", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parsed = parser.parse_args()
    if parsed.games < 1:
        parser.error(f"--games must be >= 1, got {parsed.games}")
    return MatchArgs(
        pairs=tuple((first, second) for first, second in parsed.pair),
        games=parsed.games, board_size=parsed.board_size, rule=parsed.rule,
        random_opening=parsed.random_opening, seed=parsed.seed,
    )  # fmt: skip


def main() -> None:
    args = parse_args()
    rows = []
    for first, second in args.pairs:
        print(f"{first} vs {second}", flush=True)
        start = time.perf_counter()
        wins, losses, draws = play_pairing(args, first, second)
        score = (wins + draws / 2) / args.games
        rows.append(
            (first, second, wins, losses, draws, score, time.perf_counter() - start)
        )
    print(
        f"\n{'first':<24}{'second':<24}{'W':>4}{'L':>4}{'D':>4}{'score':>8}{'min':>7}"
    )
    for first, second, wins, losses, draws, score, seconds in rows:
        print(f"{first:<24}{second:<24}{wins:>4}{losses:>4}{draws:>4}"
              f"{score:>8.0%}{seconds / 60:>7.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
