"""``gomoku train``: train an AlphaZero network by batched self-play.

The defaults train well on a 2-core CPU; the device is picked automatically (CUDA when
present), so the same command uses a GPU machine when there is one. A run is resumable:
run the same command again on the same ``--output`` folder after a kill.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gomoku_apps.cli.game_options import add_rules_arguments
from gomoku_apps.cli.ray_option import add_ray_argument, self_play_workers

DEFAULT_OUT = "runs/alphazero-{size}x{size}"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the ``train`` subcommand."""
    parser = subparsers.add_parser(
        "train",
        help="train an AlphaZero network by self-play",
        description=__doc__,
    )
    game = parser.add_argument_group("game")
    add_rules_arguments(game, board_size=9)
    run = parser.add_argument_group("run")
    run.add_argument(
        "--hours",
        type=float,
        default=1.0,
        help="wall-clock budget, summed over resumes; the run ends within one "
        "iteration of it",
    )
    run.add_argument(
        "-o",
        "--output",
        "--out",
        default=DEFAULT_OUT,
        help="folder of the run; run the same command again to resume it",
    )
    run.add_argument(
        "--init",
        help="start a new run from these weights: a bundled name (9x9, 15x15) or a "
        "file; ignored when resuming",
    )
    run.add_argument(
        "--export",
        help="also write the trained network to this file at the end (for "
        "alphazero:weights=FILE)",
    )
    run.add_argument(
        "--device",
        default="auto",
        help="where the network runs: auto (CUDA when torch sees a GPU), cpu, "
        "cuda, cuda:1, ...",
    )
    run.add_argument(
        "--threads",
        type=int,
        help="torch CPU threads (unset: at most 2)",
    )
    run.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seeds self-play, sampling and the first weights",
    )
    run.add_argument(
        "--snapshot-every",
        type=int,
        default=0,
        help="keep the network every N iterations in OUT/snapshots/ (0: never), "
        "for the learning curve",
    )
    run.add_argument(
        "--no-progress",
        action="store_true",
        help="print one line per iteration instead of a progress bar",
    )
    add_ray_argument(run, "self-play")
    network = parser.add_argument_group("network (new runs)")
    network.add_argument(
        "--channels", type=int, default=32, help="width of the residual trunk"
    )
    network.add_argument(
        "--blocks", type=int, default=4, help="residual blocks in the trunk"
    )
    teacher = parser.add_argument_group(
        "teacher games (new runs): learn the heuristic's moves before self-play"
    )
    teacher.add_argument(
        "--teacher-games",
        type=int,
        default=0,
        help="heuristic games played for the network to learn from first (0: none)",
    )
    teacher.add_argument(
        "--teacher-steps",
        type=int,
        default=0,
        help="gradient steps on the teacher games' positions",
    )
    play = parser.add_argument_group("self-play")
    play.add_argument(
        "--parallel-games",
        type=int,
        help="games per iteration, played together so one network call serves "
        "them all (unset: 64, fewer for budgets under half an hour)",
    )
    play.add_argument(
        "--simulations",
        type=int,
        default=100,
        help="search simulations of a move whose position becomes a training sample",
    )
    play.add_argument(
        "--fast-simulations",
        type=int,
        default=25,
        help="simulations of the other moves, which only move the game on",
    )
    play.add_argument(
        "--full-search-probability",
        type=float,
        default=0.25,
        help="share of moves that get the full search and give a sample",
    )
    learn = parser.add_argument_group("learning")
    learn.add_argument(
        "--learning-rate",
        type=float,
        default=2e-3,
        help="Adam's step size (lowered x0.3 after 60%% of the budget, x0.1 after 85%%)",
    )
    learn.add_argument(
        "--batch-size", type=int, default=256, help="samples per gradient step"
    )
    learn.add_argument(
        "--replay",
        type=int,
        default=30_000,
        help="replay window: the most recent samples that learning draws from",
    )
    learn.add_argument(
        "--sample-reuse",
        type=float,
        default=8.0,
        help="times each new sample is drawn for learning, on average",
    )
    learn.add_argument(
        "--min-replay",
        type=int,
        help="samples needed before the first gradient step (unset: 2000, or 64 "
        "for budgets under half an hour)",
    )
    evaluation = parser.add_argument_group("evaluation")
    evaluation.add_argument(
        "--evaluation-every",
        type=int,
        default=10,
        help="iterations between evaluation matches (0: never)",
    )
    evaluation.add_argument(
        "--evaluation-games",
        type=int,
        default=12,
        help="games of each evaluation match, against the best network so far and "
        "against pure MCTS",
    )
    evaluation.add_argument(
        "--mcts-simulations",
        type=int,
        default=1_000,
        help="simulations a move of the pure-MCTS opponent in evaluations",
    )
    parser.set_defaults(handler=run_training)


def training_config(arguments: argparse.Namespace) -> Any:
    """The :class:`TrainingConfig` that the command-line arguments describe."""
    from agents.alphazero.distillation import DistillationConfig
    from agents.alphazero.learner import LearnerConfig
    from agents.alphazero.network import NetworkConfig
    from agents.alphazero.training_config import (
        SelfPlayConfig,
        TrainingConfig,
        budget_defaults,
    )
    from gomoku_env.config import GameConfig

    defaults = budget_defaults(arguments.hours)
    parallel_games = arguments.parallel_games or defaults.parallel_games
    min_replay = arguments.min_replay or defaults.min_replay
    return TrainingConfig(
        game=GameConfig(arguments.board_size, arguments.win_length, arguments.rule),
        network=NetworkConfig(channels=arguments.channels, blocks=arguments.blocks),
        self_play=SelfPlayConfig(
            parallel_games=parallel_games,
            simulations=arguments.simulations,
            fast_simulations=arguments.fast_simulations,
            full_search_probability=arguments.full_search_probability,
        ),
        distillation=DistillationConfig(
            games=arguments.teacher_games, steps=arguments.teacher_steps
        ),
        learner=LearnerConfig(learning_rate=arguments.learning_rate),
        replay_capacity=arguments.replay,
        batch_size=arguments.batch_size,
        sample_reuse=arguments.sample_reuse,
        min_replay=min(min_replay, arguments.replay),
        evaluation_every=arguments.evaluation_every,
        evaluation_games=arguments.evaluation_games,
        mcts_simulations=arguments.mcts_simulations,
        snapshot_every=arguments.snapshot_every,
        hours=arguments.hours,
        seed=arguments.seed,
    )


def pick_device(name: str) -> str:
    """``auto`` → CUDA when torch sees a GPU, else the CPU; another name must work here.

    A device that this torch cannot use (``cuda`` on a CPU-only build, a missing GPU
    index, a misspelt name) is a ValueError naming it, before any training starts.
    """
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    try:
        torch.empty(1, device=name)
    # torch says "not compiled with CUDA" with an AssertionError, a bad name otherwise.
    except (RuntimeError, AssertionError, ValueError) as error:
        reason = (str(error).strip().splitlines() or [""])[0]
        raise ValueError(
            f"--device {name}: torch cannot use it here ({reason})"
        ) from None
    return name


def run_training(arguments: argparse.Namespace) -> int:
    """Handler of ``gomoku train``: self-play here, or on Ray workers with ``--ray``."""
    with self_play_workers(arguments.ray) as workers:
        return _train(arguments, workers)


def _train(arguments: argparse.Namespace, workers: Any) -> int:
    from agents.alphazero.checkpoint import save_network
    from agents.alphazero.evaluator import configure_threads
    from agents.alphazero.trainer import TrainingRun
    from agents.alphazero.weights import resolve_weights

    config = training_config(arguments)
    configure_threads(arguments.threads)
    out = Path(arguments.output.format(size=config.game.board_size))
    initial = resolve_weights(arguments.init) if arguments.init else None
    device = pick_device(arguments.device)
    run = TrainingRun(config, out, device, initial, self_play=workers)
    state = "resuming" if run.resumed else "starting"
    print(f"{state} {out} on {device}: {run.progress.games} games so far")
    with _progress_bar(
        config.hours, run.progress.seconds, arguments.no_progress
    ) as bar:
        progress = run.run(report=bar.report)
    print(
        f"done: {progress.iteration} iterations, {progress.games} games, "
        f"{progress.samples} samples, {progress.seconds / 3600:.2f} h wall, "
        f"{progress.cpu_seconds / 3600:.2f} h CPU; files in {out}"
    )
    if arguments.export:
        save_network(run.network, arguments.export, metadata=run.export_metadata())
        print(f"exported the network to {arguments.export}")
    return 0


class _ProgressBar:
    """A tqdm bar over the time budget, or plain lines when tqdm is off or missing."""

    def __init__(self, hours: float, done_seconds: float, disabled: bool) -> None:
        try:
            from tqdm import tqdm
        except ImportError:  # the `train` extra is not installed: print lines instead
            tqdm = None
        self._bar = None
        if tqdm is not None and not disabled:
            self._bar = tqdm(
                total=round(hours * 3600), initial=round(done_seconds), unit="s"
            )

    def __enter__(self) -> _ProgressBar:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._bar is not None:
            self._bar.close()

    def report(self, progress: Any, row: dict[str, Any]) -> None:
        fields = {"games": progress.games, "samples": progress.samples}
        for name in ("loss", "win_rate_vs_best", "win_rate_vs_mcts"):
            if row.get(name) is not None:
                fields[name] = f"{row[name]:.3f}"
        note = row.get("note")
        if self._bar is None:
            print(f"iteration {progress.iteration}: {fields}", flush=True)
        else:
            self._bar.update(round(progress.seconds) - self._bar.n)
            self._bar.set_postfix(fields)
        if note:
            message = f"iteration {progress.iteration}: {note}"
            print(message, flush=True) if self._bar is None else self._bar.write(
                message
            )


def _progress_bar(hours: float, done_seconds: float, disabled: bool) -> _ProgressBar:
    return _ProgressBar(hours, done_seconds, disabled)
