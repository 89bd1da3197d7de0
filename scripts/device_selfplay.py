"""One AlphaZero run on a GPU machine: self-play in local worker processes that each
put the network on the GPU, the learner on the same GPU, results copied as it goes.

``gomoku train alphazero`` plays its self-play games in one process (or on Ray, which a
lent GPU machine lacks): on a 16-core machine the search, which runs on the CPU, would
use one core. This driver runs the same :class:`TrainingRun` with an
:class:`ExecutorSelfPlay` over a local process pool (``--jobs`` processes, each playing
``--parallel-games`` games an iteration with its own copy of the network on
``--worker-device``), and takes every other flag of ``gomoku train alphazero``.

It fits a hard wall-clock limit: ``--wall-seconds`` counts from ``START_EPOCH`` (the
environment variable the shell script sets when it starts, else this process's start);
unless ``--train-hours`` is given, the training budget is what is left of it after the
set-up (numba compilation, worker start), less ``--tail-seconds``; the driver stops
before an iteration that would end after it, whether the trainer's own budget is wall
time (``--hours``) or CPU time (``--cpu-hours``, set high enough not to bind). After every
iteration the current network (``final.pt``) and ``metrics.csv`` are written to
``--results``, and the networks at a third and two thirds of the budget
(``snap-33.pt``, ``snap-67.pt``), so a kill leaves the results of the last iteration.

Example (what ``scripts/device_selfplay.sh`` runs)::

    python3 scripts/device_selfplay.py --results "$OUT" --jobs 15 \\
        --board-size 15 --init 15x15 --device cuda --out /tmp/az15 ...
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from gomoku_apps.cli.options import positive_float, positive_int
from gomoku_env.files import write_atomically, write_text_atomically

START = float(os.environ.get("START_EPOCH") or time.time())
KEPT = {"snap-33.pt": 1 / 3, "snap-67.pt": 2 / 3}
"""Networks copied to the results on the way: name, share of the budget spent."""


def log(message: str) -> None:
    print(f"[{time.time() - START:6.1f}s] {message}", flush=True)


def driver_arguments(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", required=True, help="folder of the copies ($OUT)")
    parser.add_argument(
        "--jobs", type=worker_count, default=max(1, (os.cpu_count() or 2) - 1)
    )
    parser.add_argument(
        "--worker-device", default=None, help="default: the run's --device"
    )
    parser.add_argument("--wall-seconds", type=positive_float, default=480.0)
    parser.add_argument("--tail-seconds", type=positive_float, default=45.0)
    parser.add_argument(
        "--train-hours",
        type=positive_float,
        default=None,
        help="wall-clock training budget (default: what --wall-seconds leaves)",
    )
    return parser.parse_known_args(argv)


def worker_count(text: str) -> int:
    """argparse type: self-play processes, 1 to four per CPU of this machine."""
    jobs, most = positive_int(text), 4 * (os.cpu_count() or 1)
    if jobs > most:
        raise argparse.ArgumentTypeError(f"at most {most} (4 per CPU), got {text!r}")
    return jobs


def start_afresh(out: Path, force: bool) -> None:
    """Clear ``out`` for a fresh run (this driver never resumes): a folder that holds
    files (an earlier call's run where /tmp outlived the call, or anyone's) is
    deleted only with ``--force``; a path that is no folder is refused."""
    if not out.exists() and not out.is_symlink():
        return
    if out.is_symlink() or not out.is_dir():
        raise SystemExit(f"--out {str(out)!r} is not a folder")
    if any(out.iterdir()):
        if not force:
            raise SystemExit(
                f"--out {str(out)!r} holds files; this driver starts a fresh run each "
                "time: give a new --out, or --force to delete them"
            )
        shutil.rmtree(out)


def warm_worker(device: str) -> int:
    """In a pool worker: import, load the compiled kernels, touch the device."""
    import torch

    from agents.alphazero.selfplay_workers import play_job  # noqa: F401

    _tiny_game("cpu")
    torch.zeros(1, device=device)
    time.sleep(2.0)  # so that every worker takes one warm-up item
    return os.getpid()


def _tiny_game(device: str) -> None:
    """Two short self-play games: compile (or load) every numba kernel they use."""
    from agents.alphazero.evaluator import NetworkEvaluator
    from agents.alphazero.network import PolicyValueNet
    from agents.alphazero.selfplay import SelfPlay
    from agents.alphazero.training_config import NetworkConfig, SelfPlayConfig
    from agents.budget import Budget
    from gomoku_env.config import GameConfig

    network = PolicyValueNet(NetworkConfig(channels=4, blocks=1, value_hidden=4))
    config = SelfPlayConfig(
        parallel_games=2,
        full_search=Budget(simulations=8),
        fast_search=Budget(simulations=4),
    )
    evaluator = NetworkEvaluator(network, device)
    SelfPlay(GameConfig(15), config, seed=0).play(evaluator)


def _gpu_name(torch: Any) -> str:
    return torch.cuda.get_device_name(0) if torch.cuda.is_available() else ""


class OutOfTimeError(Exception):
    """The next iteration would not end before the wall-clock budget."""


def copy_atomically(source: Path, target: Path) -> None:
    write_atomically(target, lambda temporary: shutil.copyfile(source, temporary))


def main(argv: list[str]) -> int:
    own, train_flags = driver_arguments(argv)
    results = Path(own.results)
    results.mkdir(parents=True, exist_ok=True)
    log(f"python {platform.python_version()}, {os.cpu_count()} CPUs")

    import torch

    from agents.alphazero.checkpoint import (
        read_checkpoint,
        resolve_weights,
        save_network,
    )
    from agents.alphazero.evaluator import configure_threads
    from agents.alphazero.selfplay_workers import ExecutorSelfPlay
    from agents.alphazero.trainer import TrainingRun
    from agents.alphazero.training_config import TrainingConfig
    from agents.executors import open_executor
    from agents.specs.flags import flag_values
    from gomoku_apps.cli.main import build_parser
    from gomoku_apps.cli.train_alphazero import (
        AlphaZeroRunOptions,
        pick_device,
        training_config,
    )

    log(
        f"torch {torch.__version__}, cuda {torch.cuda.is_available()}"
        + (f" ({_gpu_name(torch)})" if torch.cuda.is_available() else "")
    )
    parser = build_parser()
    arguments = parser.parse_args(["train", "alphazero", *train_flags])
    device = pick_device(arguments.device)
    worker_device = own.worker_device or device
    # Refused now, not after the set-up: weights that cannot be read.
    initial = resolve_weights(arguments.init) if arguments.init else None
    if initial is not None:
        read_checkpoint(initial)
    # The trainer's budget is the wall clock (``hours``: self-play is cut at it) or,
    # in later versions, CPU time (``cpu_hours``: whole iterations). Either way this
    # driver stops on the wall clock itself, before an iteration that would not fit.
    names = {field.name for field in dataclasses.fields(TrainingConfig)}
    budget_field = "hours" if "hours" in names else "cpu_hours"
    _tiny_game("cpu")  # numba compiles here once; the workers load its cache
    log("numba kernels compiled")

    with open_executor(own.jobs) as executor:
        workers = ExecutorSelfPlay(executor, jobs=own.jobs, device=worker_device)
        pids = {pid for _, pid in executor.map_unordered(
            warm_worker, [worker_device] * own.jobs
        )}  # fmt: skip
        log(f"{own.jobs} self-play workers ready ({len(pids)} processes)")
        train_hours = own.train_hours
        if train_hours is None:
            left = own.wall_seconds - (time.time() - START) - own.tail_seconds
            train_hours = max(left, 30.0) / 3600
        # cpu_hours: an upper bound (every process busy), the wall clock binds first.
        scale = 1 if budget_field == "hours" else own.jobs + 1
        setattr(arguments, budget_field, train_hours * scale)
        config = training_config(arguments)
        options = AlphaZeroRunOptions(**flag_values(AlphaZeroRunOptions, arguments))
        configure_threads(options.threads)
        out = Path(options.folder("alphazero", config.game.board_size))
        start_afresh(out, options.force)
        run = TrainingRun(config, out, device, initial, plot=False, self_play=workers)
        budget = train_hours * 3600
        train_end = time.monotonic() + budget
        last_report = [time.monotonic()]
        log(
            f"training {budget:.0f} s ({budget_field}={train_hours * scale:.4f}) "
            f"on {device}, self-play on {own.jobs} workers "
            f"({worker_device}), {config.self_play.parallel_games} games each; "
            f"run folder {out}"
        )
        metadata = {
            "command": " ".join(["scripts/device_selfplay.py", *argv]),
            "hardware": (
                f"{os.cpu_count()} CPUs"
                + (f", {gpu}" if (gpu := _gpu_name(torch)) else "")
                + f"; torch {torch.__version__}, python {platform.python_version()}"
            ),
            "starting_network": str(initial),
        }
        kept = dict(KEPT)

        def report(progress: Any, row: dict[str, Any]) -> None:
            figures = " ".join(
                f"{name} {float(row[name]):.3f}"
                for name in ("loss", "value_loss", "policy_loss")
                if row.get(name) is not None
            )
            log(
                f"iteration {progress.iteration}: {progress.games} games, "
                f"{progress.samples} samples, {progress.train_steps} steps, "
                f"{progress.seconds:.0f}/{budget:.0f} s, "
                f"{progress.games / max(progress.seconds, 1e-9):.1f} games/s {figures}"
                + (f" ({row['note']})" if row.get("note") else "")
            )
            network_metadata = {**run.export_metadata(), **metadata}
            save_network(run.network, results / "final.pt", metadata=network_metadata)
            copy_atomically(out / "metrics.csv", results / "metrics.csv")
            for name, share in list(kept.items()):
                if progress.seconds >= share * budget:
                    del kept[name]
                    save_network(run.network, results / name, metadata=network_metadata)

            write_summary(results, progress, metadata)
            now = time.monotonic()
            last, last_report[0] = now - last_report[0], now
            # With "hours" self-play is cut at the budget: half an iteration will do.
            needed = last / 2 if budget_field == "hours" else last
            if train_end - now < needed:
                raise OutOfTimeError

        try:
            progress = run.run(report=report)
        except OutOfTimeError:
            progress = run.progress
            log("stopped: the next iteration would end after the wall-clock budget")
    log("done: " + json.dumps(write_summary(results, progress, metadata)))
    return 0


def write_summary(
    results: Path, progress: Any, metadata: dict[str, str]
) -> dict[str, Any]:
    """The run's counters and throughput so far, in ``summary.json``."""
    seconds = max(progress.seconds, 1e-9)
    summary = {
        "iterations": progress.iteration,
        "games": progress.games,
        "samples": progress.samples,
        "train_steps": progress.train_steps,
        "training_seconds": round(progress.seconds, 1),
        "wall_seconds": round(time.time() - START, 1),
        "games_per_second": round(progress.games / seconds, 2),
        "samples_per_second": round(progress.samples / seconds, 2),
        **metadata,
    }
    write_text_atomically(
        results / "summary.json", json.dumps(summary, indent=1) + "\n"
    )
    return summary


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
