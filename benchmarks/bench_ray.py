"""Ray against one local process: self-play games per hour and arena games per second.

Measures, on warm workers (started, network loaded, kernels compiled), the same work
three ways: in this process, on one Ray worker and on two, in interleaved rounds (the
median round counts). Self-play plays one batch of
``--parallel-games`` games per worker (the split ``gomoku train --ray`` uses); the
arena plays ``--games`` games of two ``BusyAgent`` s (random moves after ``--think`` ms
of CPU work, from ``bench_arena.py``). Prints each rate as a ratio to the in-process
one, the scaling efficiency of two workers over one, and Ray's overhead per game (the
time one Ray worker takes over the in-process run, per game). Then times one self-play
batch of ``gomoku train``'s defaults and the learning on its samples, and predicts from
them the speed-up of W workers (the learner stays in one process). Needs the ray extra.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_ray.py`` (a few minutes).
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import ray
import torch

from agents.alphazero.learner import Learner
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.replay import ReplayBuffer
from agents.alphazero.selfplay_workers import ExecutorSelfPlay, InProcessSelfPlay
from agents.alphazero.training_config import (
    NetworkConfig,
    SelfPlayConfig,
    TrainingConfig,
)
from agents.budget import Budget
from agents.executors import Executor, InlineExecutor
from agents.executors.ray_cluster import RayExecutor
from gomoku_apps.arena.match import pair_tasks
from gomoku_apps.arena.openings import load_openings
from gomoku_apps.arena.runner import GameTask, play_task
from gomoku_env.config import GameConfig

BUSY_AGENT = Path(__file__).resolve().parent / "bench_arena.py"


def timed(work: Callable[..., int], *arguments: object) -> tuple[float, int]:
    """(seconds, games) of ``work(*arguments)``, which returns the games it played."""
    start = time.perf_counter()
    games = work(*arguments)
    return time.perf_counter() - start, games


def self_play_round(
    workers: InProcessSelfPlay | ExecutorSelfPlay,
    settings: tuple[GameConfig, SelfPlayConfig],
    seed: int,
) -> int:
    """Games of one self-play iteration with a fixed small network."""
    torch.manual_seed(0)
    network = PolicyValueNet(NetworkConfig(channels=16, blocks=2, value_hidden=16))
    rng = np.random.default_rng(seed)
    return workers.play(network, torch.device("cpu"), *settings, rng).games


def arena_round(executor: Executor, tasks: list[GameTask]) -> int:
    """Games of one arena run of ``tasks`` on ``executor``."""
    return len(dict(executor.map_unordered(play_task, tasks)))


def median_rate(samples: list[tuple[float, int]]) -> tuple[float, float]:
    """(games per second, seconds per game) of the median round."""
    seconds_per_game = statistics.median(seconds / games for seconds, games in samples)
    return 1 / seconds_per_game, seconds_per_game


def arena_tasks(games: int, think: float) -> list[GameTask]:
    config = GameConfig(board_size=9)
    spec = f"python:{BUSY_AGENT}:BusyAgent,think={think}"
    players = (("a", spec), ("b", spec))
    return pair_tasks(0, players, games, load_openings("book", config), config, 0)


def learner_share() -> tuple[float, float]:
    """(S, L): seconds of one default self-play batch here, and of learning on it.

    ``gomoku train``'s defaults (9×9, 64 games of 100/25 simulations, a 4-block
    network, 8 gradient-step samples per new sample in batches of 256), one thread.
    """
    config = TrainingConfig()
    network = PolicyValueNet(config.network)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    result = InProcessSelfPlay().play(
        network, torch.device("cpu"), config.game, config.self_play, rng
    )
    self_play_seconds = time.perf_counter() - start
    replay = ReplayBuffer(config.game.board_size, config.replay_capacity)
    replay.add(result.samples.planes, result.samples.policy, result.samples.value)
    learner = Learner(network, config.learner)
    steps = max(1, round(len(replay) * config.sample_reuse / config.batch_size))
    start = time.perf_counter()
    for _ in range(steps):
        learner.step(replay.sample(config.batch_size, rng))
    return self_play_seconds, time.perf_counter() - start


def predict(self_play_seconds: float, learning_seconds: float) -> None:
    """Games per hour of W workers over one, with the learner in one process."""
    batch, learning = self_play_seconds, learning_seconds
    print(
        f"training defaults, one batch: self-play {batch:.1f} s, learning on its "
        f"samples {learning:.1f} s ({learning / (batch + learning):.0%} of the iteration)"
    )
    for workers in (2, 8, 32, 128):
        speed_up = workers * (batch + learning) / (batch + workers * learning)
        print(f"  predicted speed-up with {workers:>3} workers: x{speed_up:.1f}")
    print(f"  limit, learner-bound: x{(batch + learning) / learning:.1f}")


def report(title: str, scale: float, unit: str, rates: dict) -> None:
    here_rate, here_game = rates["this process"]
    print(f"{title} ({unit}, ratio to this process):")
    for name, (rate, _) in rates.items():
        print(f"  {name:<14} {rate * scale:10.1f}  x{rate / here_rate:.2f}")
    one, two = rates["1 Ray worker"][0], rates["2 Ray workers"][0]
    overhead = rates["1 Ray worker"][1] - here_game
    print(f"  scaling efficiency of 2 workers over 1: {two / one / 2:.0%}")
    print(
        f"  Ray's overhead per game: {overhead * 1000:+.1f} ms "
        f"({overhead / here_game:+.1%} of a game here)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parallel-games", type=int, default=8)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--games", type=int, default=20, help="arena games")
    parser.add_argument("--think", type=float, default=2.0, help="ms of work per move")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    arguments = parser.parse_args()
    torch.set_num_threads(1)  # as each Ray worker has: one CPU, one thread
    start = time.perf_counter()
    # Three CPUs' worth of actors on this machine, so that both pools stay up; only
    # one of them works at a time.
    ray.init(num_cpus=3, include_dashboard=False, logging_level=logging.WARNING)
    print(f"Ray start-up: {time.perf_counter() - start:.1f} s (once per run)")
    settings = (
        GameConfig(board_size=9),
        SelfPlayConfig(
            parallel_games=arguments.parallel_games,
            full_search=Budget(simulations=arguments.simulations),
            fast_search=Budget(simulations=arguments.simulations // 4),
        ),
    )
    tasks = arena_tasks(arguments.games, arguments.think)
    executors = {
        "this process": InlineExecutor(),
        "1 Ray worker": RayExecutor(workers=1),
        "2 Ray workers": RayExecutor(workers=2),
    }
    self_play = {
        name: InProcessSelfPlay() if name == "this process" else ExecutorSelfPlay(ex)
        for name, ex in executors.items()
    }
    timings: dict[str, dict[str, list]] = {"self-play": {}, "arena": {}}
    for round_number in range(arguments.rounds + 1):  # round 0 warms up
        for name, executor in executors.items():
            played = (
                timed(self_play_round, self_play[name], settings, round_number),
                timed(arena_round, executor, tasks),
            )
            if round_number:
                for kind, sample in zip(timings, played, strict=True):
                    timings[kind].setdefault(name, []).append(sample)
    for executor in executors.values():
        executor.close()
    ray.shutdown()
    rates = {
        kind: {n: median_rate(s) for n, s in t.items()} for kind, t in timings.items()
    }
    load, cores = os.getloadavg()[1], os.cpu_count()
    print(f"load average over the run: {load:.1f} on {cores} cores (others' work too)")
    report("self-play, 9x9", 3600, "games per hour", rates["self-play"])
    report("arena, 9x9 BusyAgents", 1, "games per second", rates["arena"])
    predict(*learner_share())


if __name__ == "__main__":
    main()
