"""Env steps per second of the compiled vector env against SB3's DummyVecEnv.

For 1, 64 and 1024 games on 9×9 and 15×15 against the random opponent (and for 64 and
1024 games on 9×9 against the batched heuristic), times only the ``step`` calls (the
learner's actions, random legal moves, are drawn outside the timer)
and prints the median of interleaved rounds, so the two envs see the same machine load.
One env step is one learner move plus the opponent's reply, as in the single-game env.
Rates are given per wall-clock second and per CPU second of this process: on a shared
machine the second shows what the code does with the cores it is given. The vector env
runs on one thread, and also on ``--threads`` numba threads (its ``num_threads``).

    python benchmarks/bench_vector.py [--rounds 5] [--steps 200] [--threads 2]

Targets (issue 8): ≥ 1,000,000 steps/s at 1024 games on 9×9, ≥ 50× DummyVecEnv.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv

from gomoku_env.gym_env import GomokuEnv
from gomoku_env.vector_env import GomokuVectorEnv

GAME_COUNTS = (1, 64, 1024)
BOARD_SIZES = (9, 15)
HEURISTIC_GAME_COUNTS = (64, 1024)


def random_legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random legal action per game: the first legal cell in a random cell order."""
    order = rng.permutation(masks.shape[1])
    return order[np.argmax(masks[:, order], axis=1)]


def rate_vector(
    games: int, size: int, steps: int, seed: int, threads: int = 1,
    opponent: str = "random",
) -> tuple[float, float]:  # fmt: skip
    """Steps per wall and per CPU second of :class:`GomokuVectorEnv`."""
    env = GomokuVectorEnv(
        games, opponent, board_size=size, play_as="random", num_threads=threads
    )
    env.reset(seed=seed)
    return timed_steps(env.step, env.action_masks, games, steps, seed)


def rate_dummy(
    games: int, size: int, steps: int, seed: int, opponent: str = "random"
) -> tuple[float, float]:
    """Steps per wall and CPU second of SB3's DummyVecEnv over single-game envs."""
    env = DummyVecEnv(
        [
            lambda: GomokuEnv(opponent, board_size=size, play_as="random")
            for _ in range(games)
        ]
    )
    env.seed(seed)
    env.reset()

    def masks() -> np.ndarray:
        return np.stack(env.env_method("action_masks"))

    return timed_steps(env.step, masks, games, steps, seed)


def timed_steps(
    step: Callable[[np.ndarray], object],
    masks: Callable[[], np.ndarray],
    games: int,
    steps: int,
    seed: int,
) -> tuple[float, float]:
    """Game steps per wall second and per CPU second, timing ``step`` alone."""
    rng = np.random.default_rng(seed)
    wall = cpu = 0.0
    for _ in range(steps):
        actions = random_legal_actions(masks(), rng)
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        step(actions)
        wall += time.perf_counter() - wall_start
        cpu += time.process_time() - cpu_start
    return games * steps / wall, games * steps / max(cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--steps", type=int, default=200, help="batched steps per run")
    parser.add_argument("--threads", type=int, default=2, help="numba threads column")
    args = parser.parse_args()
    for threads in (1, args.threads):  # compile the kernels before timing
        rate_vector(8, 9, 2, 0, threads, "heuristic")
    print(
        f"{'opponent':>9} {'board':>6} {'games':>6} {'vector/s wall':>14} "
        f"{f'{args.threads} threads':>11} {'dummy/s wall':>13} {'ratio':>6} "
        f"{'vector/s CPU':>13} {f'{args.threads} threads':>11} {'dummy/s CPU':>12} "
        f"{'ratio':>6}"
    )
    cases = [("random", size, games) for size in BOARD_SIZES for games in GAME_COUNTS]
    cases += [("heuristic", 9, games) for games in HEURISTIC_GAME_COUNTS]
    for opponent, size, games in cases:
        one, many, dummy = [], [], []
        steps = args.steps if opponent == "random" else max(2, args.steps // 4)
        dummy_steps = max(2, min(steps, 20_000 // games))
        for seed in range(args.rounds):
            one.append(rate_vector(games, size, steps, seed, 1, opponent))
            many.append(rate_vector(games, size, steps, seed, args.threads, opponent))
            dummy.append(rate_dummy(games, size, dummy_steps, seed, opponent))
        print(
            f"{opponent:>9} {size:>4}x{size:<1} {games:>6} "
            + format_rates(one, many, dummy)
        )


def format_rates(
    one: list[tuple[float, float]],
    many: list[tuple[float, float]],
    dummy: list[tuple[float, float]],
) -> str:
    """Median wall and CPU rates of the envs and the ratio of the better vector rate to
    DummyVecEnv's, as one table row."""
    columns = []
    for clock in (0, 1):
        v, t, d = (
            statistics.median(r[clock] for r in rates) for rates in (one, many, dummy)
        )
        columns.append(f"{v:>14,.0f} {t:>11,.0f} {d:>13,.0f} {max(v, t) / d:>5.0f}x")
    return " ".join(columns)


if __name__ == "__main__":
    main()
