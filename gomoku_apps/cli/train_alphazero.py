"""``gomoku train alphazero`` (and ``gomoku train``): an AlphaZero network by batched
self-play.

The defaults train well on a 2-core CPU; the device is picked automatically (CUDA when
present), so the same command uses a GPU machine when there is one. A run is resumable:
run the same command again on the same ``--out`` folder after a kill.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.alphazero.training_config import (
    FAST_SEARCH_BUDGET,
    FULL_SEARCH_BUDGET,
    DistillationConfig,
    LearnerConfig,
    NetworkConfig,
    SelfPlayConfig,
    TrainingConfig,
    budget_defaults,
)
from agents.budget import Budget
from agents.specs.flags import flag_values
from gomoku_apps.cli.options import add_ray_argument, add_rules_arguments
from gomoku_apps.cli.training import (
    RunOptions,
    TrainingProgress,
    add_route_parser,
    before_and_after,
    claimed_run_folder,
    cpu_copy,
    where_to_play,
)
from gomoku_env.config import GameConfig
from gomoku_env.fields import option
from gomoku_env.files import check_replaceable

ROUTE = "alphazero"
RESULT_FILE = "final.pt"
"""The run's result in its folder, rewritten at the end of every invocation: the
trained network (``best.pt`` changes only when a gating match is won)."""
GROUPS = {
    "run": "run",
    "network": "network (new runs)",
    "teacher": "teacher games (new runs): learn the heuristic's moves before self-play",
    "self-play": "self-play",
    "learning": "learning",
    "evaluation": "evaluation",
}
"""The help's groups: flag group (``option(..., flag=NAME)``) and title."""


@dataclass(frozen=True)
class AlphaZeroRunOptions(RunOptions):
    """The run options of AlphaZero: where it starts from and where it runs."""

    init: str | None = option(
        None,
        help=(
            "start a new run from these weights: a bundled name (9x9, 15x15) or a "
            "file; ignored when resuming"
        ),
        flag="run",
    )
    device: str = option(
        "auto",
        help=(
            "where the network runs: auto (CUDA when torch sees a GPU), cpu, cuda, "
            "cuda:1, ..."
        ),
        flag="run",
    )
    threads: int = option(
        1,
        help="torch CPU threads (small networks on a busy machine: 1 is fastest)",
        minimum=1,
        maximum=256,
        flag="run",
    )


@dataclass(frozen=True)
class SelfPlayBudgetFlags:
    """Self-play's two budgets (:class:`SelfPlayConfig`'s ``full_search`` and
    ``fast_search``) as the flat flags they were, one number each: simulations are all
    that they may count (:data:`agents.alphazero.training_config.SELF_PLAY_LIMITS`)."""

    simulations: int = option(
        FULL_SEARCH_BUDGET.simulations,
        help="search simulations of a move whose position becomes a training sample",
        minimum=1,
        flag="self-play",
    )
    fast_simulations: int = option(
        FAST_SEARCH_BUDGET.simulations,
        help=(
            "simulations of the other moves, which only move the game on (playout-cap"
            " randomisation: cheap moves keep games going but give no training "
            "sample)"
        ),
        minimum=1,
        flag="self-play",
    )

    def budgets(self) -> dict[str, Budget]:
        """The :class:`SelfPlayConfig` budgets (its keyword arguments) they give."""
        return {
            "full_search": Budget(simulations=self.simulations),
            "fast_search": Budget(simulations=self.fast_simulations),
        }


FLAG_SOURCES = [
    (AlphaZeroRunOptions, "", None),
    (TrainingConfig, "", None),
    (NetworkConfig, "", None),
    (DistillationConfig, "teacher-", None),
    (SelfPlayBudgetFlags, "", None),
    (SelfPlayConfig, "", None),
    (LearnerConfig, "", None),
]
"""The dataclasses whose fields are the route's flags: (class, flag prefix, preset)."""


def add_parser(routes: argparse._SubParsersAction) -> None:
    """Register the ``alphazero`` route; its flags come from the config dataclasses
    (:mod:`agents.alphazero.training_config`), their help from the fields."""
    summary = "train an AlphaZero network by self-play"
    parser, groups = add_route_parser(
        routes, ROUTE, summary, __doc__, GROUPS, FLAG_SOURCES
    )
    add_rules_arguments(parser.add_argument_group("game"), board_size=9)
    add_ray_argument(groups["run"], "self-play")
    parser.set_defaults(handler=run_training)


def training_config(arguments: argparse.Namespace) -> TrainingConfig:
    """The :class:`TrainingConfig` that the command-line arguments describe: the
    flags' values, and the budget's defaults for the flags left unset."""
    defaults = budget_defaults(arguments.cpu_hours)
    run = flag_values(TrainingConfig, arguments)
    run.setdefault("min_replay", defaults.min_replay)
    run["min_replay"] = min(run["min_replay"], arguments.replay_capacity)
    self_play = flag_values(SelfPlayConfig, arguments)
    self_play.setdefault("parallel_games", defaults.parallel_games)
    budgets = SelfPlayBudgetFlags(**flag_values(SelfPlayBudgetFlags, arguments))
    self_play.update(budgets.budgets())
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
    """Handler of ``gomoku train alphazero``: self-play here, or on Ray workers with
    ``--ray``."""
    from gomoku_apps.cli.options import self_play_workers

    with self_play_workers(arguments.ray) as workers:
        return _train(arguments, workers)


def _train(arguments: argparse.Namespace, workers: Any) -> int:
    from agents.alphazero.checkpoint import resolve_weights, save_network
    from agents.alphazero.evaluator import configure_threads
    from agents.alphazero.run_files import run_folder_writes
    from agents.alphazero.trainer import TrainingRun

    config = training_config(arguments)
    options = AlphaZeroRunOptions(**flag_values(AlphaZeroRunOptions, arguments))
    if options.export:
        check_replaceable(options.export)  # refused before the training, not after
    configure_threads(options.threads)
    out = Path(options.folder(ROUTE, config.game.board_size))
    initial = resolve_weights(options.init) if options.init else None
    device = pick_device(options.device)
    with (
        claimed_run_folder(out, ROUTE, options.force),
        run_folder_writes(out),
    ):
        run = TrainingRun(config, out, device, initial, self_play=workers)
        state = "resuming" if run.resumed else "starting"
        print(f"{state} {out} on {device}: {run.progress.games} games so far")
        start = cpu_copy(run.network)
        budget = config.cpu_hours * 3600
        with TrainingProgress(
            budget, run.progress.cpu_seconds, "CPU s", options.progress
        ) as bar:

            def report(progress: Any, row: dict[str, Any]) -> None:
                bar.report(
                    f"iteration {progress.iteration}", progress.cpu_seconds,
                    _figures(progress, row), row.get("note"),
                )  # fmt: skip

            progress = run.run(report=report)
        result = out / RESULT_FILE
        save_network(run.network, result, metadata=run.export_metadata())
    print(
        f"done: {progress.iteration} iterations, {progress.games} games, "
        f"{progress.samples} samples, {progress.seconds / 3600:.2f} h wall, "
        f"{progress.cpu_seconds / 3600:.2f} h CPU; files in {out}"
    )
    print(_before_and_after(run.network, start, config.game))
    if options.export:
        save_network(run.network, options.export, metadata=run.export_metadata())
        print(f"exported the network to {options.export}")
    print(where_to_play(result, ROUTE, config.game))
    return 0


def _figures(progress: Any, row: dict[str, Any]) -> dict[str, Any]:
    """What the bar shows of an iteration: counts, and the losses and scores it has."""
    figures = {"games": progress.games, "samples": progress.samples}
    for name in ("loss", "win_rate_vs_best", "win_rate_vs_mcts"):
        if row.get(name) is not None:
            figures[name] = float(row[name])
    return figures


def _before_and_after(trained: Any, start: Any, game: GameConfig) -> str:
    from agents.alphazero.agent import AlphaZeroAgent

    def player(network: Any, seed: int) -> Any:
        return AlphaZeroAgent(
            game, cpu_copy(network), Budget(simulations=16), seed=seed
        )

    return before_and_after(
        player(trained, 1), player(start, 2), game, "16 simulations a move"
    )
