"""Arena throughput: games per second with one process and with ``--jobs`` processes.

Prints the speed-up of the parallel run over the sequential one measured in the same
run (random against random, so the arena's own overhead dominates), the median of
``--rounds`` interleaved rounds. Run with ``gomoku bench arena`` or
``.venv/bin/python benchmarks/bench_arena.py --jobs 2``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from agents.arena import Arena
from gomoku_env.config import GameConfig


def games_per_second(jobs: int, games: int, board_size: int) -> float:
    """Throughput of one match of ``games`` random-vs-random games."""
    arena = Arena(GameConfig(board_size=board_size), jobs=jobs, seed=0)
    start = time.perf_counter()
    arena.match("random", "random", games)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--board-size", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    sequential, parallel = [], []
    for _ in range(arguments.rounds):
        sequential.append(games_per_second(1, arguments.games, arguments.board_size))
        parallel.append(
            games_per_second(arguments.jobs, arguments.games, arguments.board_size)
        )
    one, many = statistics.median(sequential), statistics.median(parallel)
    print(
        f"1 process: {one:.1f} games/s; {arguments.jobs} processes: {many:.1f} games/s"
    )
    print(f"speed-up x{many / one:.2f} (median of {arguments.rounds} rounds)")


if __name__ == "__main__":
    main()
