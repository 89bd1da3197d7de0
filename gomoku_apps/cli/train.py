"""``gomoku train``: train an AlphaZero network by batched self-play.

The defaults train well on a 2-core CPU; the device is picked automatically (CUDA when
present), so the same command uses a GPU machine when there is one. A run is resumable:
run the same command again on the same ``--out`` folder after a kill.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gomoku_apps.cli.game_options import add_rule_argument

DEFAULT_OUT = "runs/alphazero-{size}x{size}"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the ``train`` subcommand."""
    parser = subparsers.add_parser(
        "train",
        help="train an AlphaZero network by self-play",
        description=__doc__,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    game = parser.add_argument_group("game")
    game.add_argument("--board-size", type=int, default=9)
    game.add_argument("--win-length", type=int, default=5)
    add_rule_argument(game)
    run = parser.add_argument_group("run")
    run.add_argument("--hours", type=float, default=1.0, help="budget, over resumes")
    run.add_argument("--out", default=DEFAULT_OUT, help="folder of the run")
    run.add_argument("--init", help="start from these weights (bundled name or path)")
    run.add_argument("--export", help="write the trained network here at the end")
    run.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:1, ...")
    run.add_argument("--threads", type=int, help="torch CPU threads (default: ≤ 2)")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    network = parser.add_argument_group("network (new runs)")
    network.add_argument("--channels", type=int, default=32)
    network.add_argument("--blocks", type=int, default=4)
    play = parser.add_argument_group("self-play")
    play.add_argument("--parallel-games", type=int, default=64)
    play.add_argument("--simulations", type=int, default=100)
    play.add_argument("--fast-simulations", type=int, default=25)
    play.add_argument("--full-search-probability", type=float, default=0.25)
    learn = parser.add_argument_group("learning")
    learn.add_argument("--learning-rate", type=float, default=2e-3)
    learn.add_argument("--batch-size", type=int, default=256)
    learn.add_argument("--replay", type=int, default=30_000, help="replay window")
    learn.add_argument("--sample-reuse", type=float, default=8.0)
    learn.add_argument("--min-replay", type=int, default=2_000, help="before learning")
    evaluation = parser.add_argument_group("evaluation")
    evaluation.add_argument("--evaluation-every", type=int, default=10)
    evaluation.add_argument("--evaluation-games", type=int, default=12)
    evaluation.add_argument("--mcts-simulations", type=int, default=1_000)
    parser.set_defaults(handler=run_training)


def training_config(arguments: argparse.Namespace) -> Any:
    """The :class:`TrainingConfig` that the command-line arguments describe."""
    from agents.alphazero.learner import LearnerConfig
    from agents.alphazero.network import NetworkConfig
    from agents.alphazero.training_config import SelfPlayConfig, TrainingConfig
    from gomoku_env.config import GameConfig

    return TrainingConfig(
        game=GameConfig(arguments.board_size, arguments.win_length, arguments.rule),
        network=NetworkConfig(channels=arguments.channels, blocks=arguments.blocks),
        self_play=SelfPlayConfig(
            parallel_games=arguments.parallel_games,
            simulations=arguments.simulations,
            fast_simulations=arguments.fast_simulations,
            full_search_probability=arguments.full_search_probability,
        ),
        learner=LearnerConfig(learning_rate=arguments.learning_rate),
        replay_capacity=arguments.replay,
        batch_size=arguments.batch_size,
        sample_reuse=arguments.sample_reuse,
        min_replay=min(arguments.min_replay, arguments.replay),
        evaluation_every=arguments.evaluation_every,
        evaluation_games=arguments.evaluation_games,
        mcts_simulations=arguments.mcts_simulations,
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
    """Handler of ``gomoku train``."""
    from agents.alphazero.checkpoint import save_network
    from agents.alphazero.evaluator import configure_threads
    from agents.alphazero.trainer import TrainingRun
    from agents.alphazero.weights import resolve_weights

    config = training_config(arguments)
    configure_threads(arguments.threads)
    out = Path(arguments.out.format(size=config.game.board_size))
    initial = resolve_weights(arguments.init) if arguments.init else None
    device = pick_device(arguments.device)
    run = TrainingRun(config, out, device=device, initial_weights=initial)
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
        if self._bar is None:
            print(f"iteration {progress.iteration}: {fields}", flush=True)
            return
        self._bar.update(round(progress.seconds) - self._bar.n)
        self._bar.set_postfix(fields)


def _progress_bar(hours: float, done_seconds: float, disabled: bool) -> _ProgressBar:
    return _ProgressBar(hours, done_seconds, disabled)
