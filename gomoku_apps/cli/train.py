"""``gomoku train``: train an AlphaZero network by batched self-play.

The defaults train well on a 2-core CPU; the device is picked automatically (CUDA when
present), so the same command uses a GPU machine when there is one. A run is resumable:
run the same command again on the same ``--output`` folder after a kill.
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path
from typing import Any

from agents.alphazero.training_config import (
    DistillationConfig,
    LearnerConfig,
    NetworkConfig,
    SelfPlayConfig,
    TrainingConfig,
    budget_defaults,
)
from agents.options import add_flags, flag_values
from gomoku_apps.cli.options import (
    add_ray_argument,
    add_rules_arguments,
    positive_int,
    self_play_workers,
)
from gomoku_env.config import GameConfig

DEFAULT_OUT = "runs/alphazero-{size}x{size}"
RESULT_FILE = "final.pt"
"""The run's result in its folder, rewritten at the end of every invocation: the
trained network (``best.pt`` changes only when a gating match is won)."""
BEFORE_AFTER_GAMES = 8
"""Games of the closing before/after match (colours alternate)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the ``train`` subcommand; its training flags come from the config
    dataclasses (:mod:`agents.alphazero.training_config`), help from their fields."""

    parser = subparsers.add_parser(
        "train",
        help="train an AlphaZero network by self-play",
        description=__doc__,
    )
    game = parser.add_argument_group("game")
    add_rules_arguments(game, board_size=9)
    run = parser.add_argument_group("run")
    add_flags(run, TrainingConfig, only=("hours", "seed", "snapshot_every"))
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
        type=positive_int,
        help="torch CPU threads (unset: at most 2)",
    )
    run.add_argument(
        "--no-progress",
        action="store_true",
        help="print one line per iteration instead of a progress bar",
    )
    add_ray_argument(run, "self-play")
    network = parser.add_argument_group("network (new runs)")
    add_flags(network, NetworkConfig, only=("channels", "blocks"))
    teacher = parser.add_argument_group(
        "teacher games (new runs): learn the heuristic's moves before self-play"
    )
    add_flags(
        teacher, DistillationConfig, only=("games", "steps", "depth"), prefix="teacher-"
    )
    play = parser.add_argument_group("self-play")
    add_flags(
        play,
        SelfPlayConfig,
        only=(
            "parallel_games",
            "simulations",
            "fast_simulations",
            "full_search_probability",
        ),
        unset={"parallel_games": "64, fewer for budgets under half an hour"},
    )
    learn = parser.add_argument_group("learning")
    add_flags(learn, LearnerConfig, only=("learning_rate",))
    add_flags(
        learn,
        TrainingConfig,
        only=("batch_size", "replay_capacity", "sample_reuse", "min_replay"),
        unset={"min_replay": "2000, or 64 for budgets under half an hour"},
    )
    evaluation = parser.add_argument_group("evaluation")
    add_flags(
        evaluation,
        TrainingConfig,
        only=("evaluation_every", "evaluation_games", "mcts_simulations"),
    )
    parser.set_defaults(handler=run_training)


def training_config(arguments: argparse.Namespace) -> Any:
    """The :class:`TrainingConfig` that the command-line arguments describe: the
    flags' values, and the budget's defaults for the flags left unset."""

    defaults = budget_defaults(arguments.hours)
    run = flag_values(TrainingConfig, arguments)
    run.setdefault("min_replay", defaults.min_replay)
    run["min_replay"] = min(run["min_replay"], arguments.replay_capacity)
    self_play = flag_values(SelfPlayConfig, arguments)
    self_play.setdefault("parallel_games", defaults.parallel_games)
    return TrainingConfig(
        game=GameConfig(arguments.board_size, arguments.win_length, arguments.rule),
        network=NetworkConfig(**flag_values(NetworkConfig, arguments)),
        self_play=SelfPlayConfig(**self_play),
        distillation=DistillationConfig(
            **flag_values(DistillationConfig, arguments, prefix="teacher_")
        ),
        learner=LearnerConfig(**flag_values(LearnerConfig, arguments)),
        **run,
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
    from agents.alphazero.checkpoint import resolve_weights, save_network
    from agents.alphazero.evaluator import configure_threads
    from agents.alphazero.run_files import run_folder_writes
    from agents.alphazero.trainer import TrainingRun

    config = training_config(arguments)
    configure_threads(arguments.threads)
    out = Path(arguments.output.format(size=config.game.board_size))
    initial = resolve_weights(arguments.init) if arguments.init else None
    device = pick_device(arguments.device)
    with run_folder_writes(out):
        run = TrainingRun(config, out, device, initial, self_play=workers)
        state = "resuming" if run.resumed else "starting"
        print(f"{state} {out} on {device}: {run.progress.games} games so far")
        start = copy.deepcopy(run.network).cpu().eval()
        with _progress_bar(
            config.hours, run.progress.seconds, arguments.no_progress
        ) as bar:
            progress = run.run(report=bar.report)
        result = out / RESULT_FILE
        save_network(run.network, result, metadata=run.export_metadata())
    print(
        f"done: {progress.iteration} iterations, {progress.games} games, "
        f"{progress.samples} samples, {progress.seconds / 3600:.2f} h wall, "
        f"{progress.cpu_seconds / 3600:.2f} h CPU; files in {out}"
    )
    print(before_and_after(run.network, start, config.game))
    if arguments.export:
        save_network(run.network, arguments.export, metadata=run.export_metadata())
        print(f"exported the network to {arguments.export}")
    size = config.game.board_size
    print(
        f"the trained network: {result} (play it: gomoku play --white "
        f"alphazero:weights={result} --board-size {size}; rate it: gomoku rate "
        f"alphazero:weights={result} --board-size {size})"
    )
    return 0


def before_and_after(trained: Any, start: Any, game: Any) -> str:
    """A line saying how the trained network scores against the one this invocation
    started from (a short match with a small search each move): whether it learned,
    beyond the loss."""
    from agents.alphazero.agent import AlphaZeroAgent
    from agents.budget import Budget
    from agents.head_to_head import play_match

    def player(network: Any, seed: int) -> Any:
        return AlphaZeroAgent(
            game, copy.deepcopy(network).cpu(), Budget(simulations=16), seed=seed
        )

    score = play_match(
        player(trained, 1), player(start, 2), game, BEFORE_AFTER_GAMES, seed=0
    )
    return (
        f"before/after: the trained network scored {score.score:.2f} "
        f"({score.wins} won, {score.draws} drawn, {score.losses} lost) against the "
        f"network this run started from, {BEFORE_AFTER_GAMES} games, 16 simulations "
        "a move (0.5 would mean no change)"
    )


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
