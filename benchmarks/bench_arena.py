"""Arena throughput: games per second with one process and with ``--jobs`` processes.

The players are ``BusyAgent``s: random moves after ``--think`` milliseconds of busy CPU
work per move, standing in for a search agent, so the measure shows how the arena
spreads thinking over processes (with ``--think 0`` it measures the arena's own
overhead, where starting the worker processes dominates short matches). Prints the
speed-up of the parallel run over the sequential one measured in the same run, the
median of ``--rounds`` interleaved rounds. Run with ``gomoku bench arena`` or
``.venv/bin/python benchmarks/bench_arena.py --jobs 2``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from agents import RandomAgent
from gomoku_apps.arena import Arena
from gomoku_env.config import GameConfig


class BusyAgent(RandomAgent):
    """A random mover that first keeps the CPU busy for ``think`` milliseconds."""

    def __init__(self, seed: int | None = None, think: float = 1.0) -> None:
        super().__init__(seed)
        self.think = think / 1000

    def act(self, observation: dict) -> int:
        deadline = time.perf_counter() + self.think
        while time.perf_counter() < deadline:
            pass
        return super().act(observation)


def games_per_second(jobs: int, games: int, board_size: int, think: float) -> float:
    """Throughput of one match of ``games`` games between two busy agents."""
    spec = f"python:{Path(__file__).resolve()}:BusyAgent,think={think}"
    arena = Arena(GameConfig(board_size=board_size), jobs=jobs, seed=0)
    start = time.perf_counter()
    arena.match(spec, spec, games)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--board-size", type=int, default=15)
    parser.add_argument("--think", type=float, default=1.0, help="ms of work per move")
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    settings = (arguments.games, arguments.board_size, arguments.think)
    sequential, parallel = [], []
    for _ in range(arguments.rounds):
        sequential.append(games_per_second(1, *settings))
        parallel.append(games_per_second(arguments.jobs, *settings))
    one, many = statistics.median(sequential), statistics.median(parallel)
    print(
        f"1 process: {one:.1f} games/s; {arguments.jobs} processes: {many:.1f} games/s"
    )
    print(f"speed-up x{many / one:.2f} (median of {arguments.rounds} rounds)")


if __name__ == "__main__":
    main()
