"""AEC env throughput: gomoku 15×15 against PettingZoo's connect four and OpenSpiel's gomoku.

Every env is driven the same way: each step reads the observation and its action mask,
picks a uniformly random legal action from the mask and steps; finished games are reset.
Rounds of all envs are interleaved so that load on the machine hits them alike, time is
this process's CPU time (so other processes on a busy machine do not count against a
round), and the median rate over rounds is reported with the ratios the targets are
stated in.

Run: ``python benchmarks/bench_env.py [--rounds 7] [--seconds 1.0]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from pettingzoo.classic import connect_four_v3

import gomoku_env

StepLoop = Callable[[float], int]


def aec_loop(environment) -> StepLoop:
    """Steps a PettingZoo AEC env for ``seconds``; returns the number of steps."""
    rng = np.random.default_rng(0)
    environment.reset(seed=0)

    def run(seconds: float) -> int:
        steps = 0
        deadline = time.process_time() + seconds
        while time.process_time() < deadline:
            for _ in range(100):
                observation, _, termination, truncation, _ = environment.last()
                if termination or truncation:
                    environment.reset()
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                environment.step(int(legal[rng.integers(legal.size)]))
                steps += 1
        return steps

    return run


def openspiel_loop(board_size: int) -> StepLoop | None:
    """OpenSpiel's C++ gomoku through pyspiel, observation tensor and mask per step."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gomoku", {"size": board_size})
    rng = np.random.default_rng(0)
    state = game.new_initial_state()

    def run(seconds: float) -> int:
        nonlocal state
        steps = 0
        deadline = time.process_time() + seconds
        while time.process_time() < deadline:
            for _ in range(100):
                if state.is_terminal():
                    state = game.new_initial_state()
                    continue
                np.asarray(state.observation_tensor(), dtype=np.float32)
                legal = np.flatnonzero(state.legal_actions_mask())
                state.apply_action(int(legal[rng.integers(legal.size)]))
                steps += 1
        return steps

    return run


def measure(
    loops: dict[str, StepLoop], rounds: int, seconds: float
) -> dict[str, float]:
    """Median steps per second of each loop over interleaved rounds."""
    rates: dict[str, list[float]] = {name: [] for name in loops}
    for loop in loops.values():
        loop(0.2)  # warm-up: numba compilation, caches
    for _ in range(rounds):
        for name, loop in loops.items():
            start = time.process_time()
            steps = loop(seconds)
            rates[name].append(steps / (time.process_time() - start))
    return {name: statistics.median(values) for name, values in rates.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0)
    arguments = parser.parse_args()
    loops: dict[str, StepLoop] = {
        "gomoku 15x15 env()": aec_loop(gomoku_env.env(board_size=15)),
        "gomoku 15x15 raw_env()": aec_loop(gomoku_env.raw_env(board_size=15)),
        "connect_four_v3 env()": aec_loop(connect_four_v3.env()),
    }
    openspiel = openspiel_loop(15)
    if openspiel is not None:
        loops["openspiel gomoku 15x15 (pyspiel)"] = openspiel
    rates = measure(loops, arguments.rounds, arguments.seconds)
    for name, rate in rates.items():
        print(f"{name:36s} {rate:12,.0f} steps/s")
    wrapped = rates["gomoku 15x15 env()"] / rates["connect_four_v3 env()"]
    print(f"gomoku env() / connect_four_v3 env():      {wrapped:6.2f}x  (target >= 2)")
    if openspiel is not None:
        raw = (
            rates["gomoku 15x15 raw_env()"] / rates["openspiel gomoku 15x15 (pyspiel)"]
        )
        print(f"gomoku raw_env() / openspiel pyspiel:      {raw:6.2f}x  (target >= 4)")
    else:
        print("openspiel not installed (pip install open-spiel): raw_env ratio skipped")


if __name__ == "__main__":
    main()
