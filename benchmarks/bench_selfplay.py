"""Self-play throughput on 9×9: one game at a time against 64 games stepped together.

Both modes run the same self-play (the training defaults: playout-cap randomisation,
4 leaves per search per round) with the same network; the only difference is how many
games share each network call. One game at a time, a call evaluates at most 4 leaves;
with 64 games stepped together, one call evaluates up to 256. Printed: self-play games
per hour, network evaluations per second, simulations per second, the mean batch per
network call, and the ratios (64 games ÷ 1 game).

Everything runs in the calling thread (torch set to one thread) and is timed in CPU
seconds of that thread (``time.thread_time``), so a busy shared machine does not skew
the ratio; rounds are interleaved and medians reported.

    python benchmarks/bench_selfplay.py [--rounds 3] [--single-games 4] [--weights 9x9]
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch

from agents.alphazero.agent import load_weights_option
from agents.alphazero.checkpoint import bundled_names
from agents.alphazero.evaluator import NetworkEvaluator
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.selfplay import SelfPlay
from agents.alphazero.training_config import SelfPlayConfig
from gomoku_env import GameConfig

GAME = GameConfig(board_size=9)


def measure(network: PolicyValueNet, parallel: int, games: int, seed: int) -> dict:
    """Throughput of ``games`` self-play games played ``parallel`` at a time."""
    evaluator = NetworkEvaluator(network)
    self_play = SelfPlay(GAME, SelfPlayConfig(parallel_games=parallel), seed=seed)
    started = time.thread_time()
    simulations = finished = 0
    while finished < games:
        result = self_play.play(evaluator, min(parallel, games - finished))
        simulations += result.simulations
        finished += result.games
    seconds = time.thread_time() - started
    return {
        "games/hour": finished / seconds * 3600,
        "evaluations/s": evaluator.evaluations / seconds,
        "simulations/s": simulations / seconds,
        "batch/call": evaluator.evaluations / evaluator.network_calls,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--single-games", type=int, default=4)
    parser.add_argument(
        "--weights", default="9x9" if "9x9" in bundled_names() else None
    )
    arguments = parser.parse_args()
    torch.set_num_threads(1)
    if arguments.weights:
        network = load_weights_option(arguments.weights, GAME)
    else:
        torch.manual_seed(0)
        network = PolicyValueNet().eval()
    print(f"network: {arguments.weights or 'untrained default'}; 9x9, one thread")
    measure(network, 2, 2, seed=0)  # compile the kernels before timing
    single, batched = [], []
    for round_index in range(arguments.rounds):
        single.append(measure(network, 1, arguments.single_games, seed=round_index))
        batched.append(measure(network, 64, 64, seed=round_index))
    print(f"{'':24}{'1 game':>14}{'64 games':>14}{'ratio':>10}")
    for key in single[0]:
        one = statistics.median(row[key] for row in single)
        many = statistics.median(row[key] for row in batched)
        print(f"{key:24}{one:14.1f}{many:14.1f}{many / one:10.2f}")


if __name__ == "__main__":
    main()
