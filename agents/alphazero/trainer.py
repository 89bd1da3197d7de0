"""The AlphaZero training loop: self-play, learn, checkpoint, evaluate, log; resumable.

A run lives in one folder:

=====================  ==========================================================
``latest-N.pt``        network, optimiser state and counters after iteration N
``replay-N.npz``       the replay window as saved after iteration N
``metrics.csv``        one row per iteration; ``metrics.png`` draws it (matplotlib)
``manifest.json``      names the files above of the last complete iteration
``best.pt``            the network that won the last gating match (the one to ship)
``snapshots/``         the network every ``snapshot_every`` iterations (the
                       learning curve's points: ``gomoku ladder`` rates them)
=====================  ==========================================================

A new run with teacher games (``config.distillation``) first teaches the network the
teacher's moves (:mod:`agents.alphazero.distillation`) and commits that as
iteration 0; self-play starts from there.

The time budget holds within one iteration: self-play stops at the budget's end
(dropping the games still being played), and a run does not start an iteration when
less than half of the last one's time is left.

Each iteration plays a batch of self-play games, adds their samples to the replay
window, takes gradient steps, then writes its files atomically and ``manifest.json``
last (see :mod:`agents.alphazero.run_files`). A run killed at any point restarts from
the last complete iteration, with its replay window and metrics rows and nothing of the
unfinished one; its time budget counts the time spent before the kill. A run resumes
only with the game it was started with.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.alphazero.checkpoint import (
    CheckpointError,
    load_weights,
    network_from_payload,
    read_checkpoint,
    save_network,
)
from agents.alphazero.distillation import distil
from agents.alphazero.gating import evaluation_row
from agents.alphazero.learner import Learner, LossTerms
from agents.alphazero.metrics import MetricsLog, plot_metrics
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.replay import ReplayBuffer
from agents.alphazero.run_files import Manifest, RunFiles
from agents.alphazero.selfplay_workers import InProcessSelfPlay, SelfPlayWorkers
from agents.alphazero.training_config import TrainingConfig
from gomoku_env.errors import install_hint

LOGGER = logging.getLogger(__name__)


@dataclass
class Progress:
    """Counters of a run, saved in every checkpoint."""

    iteration: int = 0
    games: int = 0
    samples: int = 0
    train_steps: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    teacher_games: int = 0
    teacher_steps: int = 0

    def to_dict(self) -> dict[str, float]:
        return dict(vars(self))


class TrainingRun:
    """One training run in ``directory``, resumed from it when it holds a checkpoint.

    Args:
        config: the run's settings.
        directory: where the run's files live.
        device: where the network trains and plays.
        initial_weights: weights to start a new run from (fine-tuning); ignored when
            resuming.
        plot: redraw ``metrics.png`` after every iteration.
        self_play: who plays the self-play games (default: this process; see
            :mod:`agents.alphazero.selfplay_workers` for workers on Ray).
    """

    def __init__(
        self,
        config: TrainingConfig,
        directory: str | Path,
        device: torch.device | str = "cpu",
        initial_weights: str | Path | None = None,
        plot: bool = True,
        self_play: SelfPlayWorkers | None = None,
    ) -> None:
        self.config = config
        self.self_play = self_play if self_play is not None else InProcessSelfPlay()
        self.plot = plot
        self.directory = Path(directory)
        self.files = RunFiles(self.directory)
        self.device = torch.device(device)
        self.progress = Progress()
        self.metrics = MetricsLog(self.directory / "metrics.csv")
        manifest = self.files.read_manifest(len(self.metrics.rows))
        self.files.remove_leftovers(manifest)
        self._check_best()
        network = self._initial_network(manifest, initial_weights)
        # Weights from --init or a checkpoint bring their own shape: record that one.
        self.config = replace(config, network=network.config)
        self.learner = Learner(network, config.learner, self.device)
        self.replay = ReplayBuffer(config.game.board_size, config.replay_capacity)
        self.resumed = manifest is not None
        self.last_iteration_cpu_seconds: float | None = None
        if manifest is not None:
            self._resume(manifest)

    @property
    def network(self) -> PolicyValueNet:
        return self.learner.network

    def _initial_network(
        self, manifest: Manifest | None, initial_weights: str | Path | None
    ) -> PolicyValueNet:
        source = initial_weights
        if manifest is not None:
            source = self.directory / manifest.checkpoint
        if source is None:
            torch.manual_seed(self.config.seed)
            return PolicyValueNet(self.config.network)
        return network_from_payload(read_checkpoint(source), source)

    def _check_best(self) -> None:
        """A ``best.pt`` already in the folder is read as the gate of a resume: refuse
        one of another game (board size, win length, rule), naming it. A new run (one
        killed in its first iteration too) replaces it with its own first network."""
        path = self.directory / "best.pt"
        if path.is_file():
            metadata = read_checkpoint(path).get("metadata") or {}
            saved = metadata.get("game") if isinstance(metadata, dict) else None
            _check_same_game(saved or {}, _game_dict(self.config), path)

    def _resume(self, manifest: Manifest) -> None:
        latest = self.directory / manifest.checkpoint
        payload = read_checkpoint(latest)
        _check_same_game(payload.get("game", {}), _game_dict(self.config), latest)
        load_weights(self.network, payload["state_dict"], latest)
        self.learner.optimizer.load_state_dict(payload["optimizer"])
        self.progress = Progress(**payload["progress"])
        self.learner.steps = self.progress.train_steps
        saved = self.directory / manifest.replay
        capacity, size = self.config.replay_capacity, self.config.game.board_size
        self.replay = ReplayBuffer.load(saved, capacity, size)
        if manifest.metrics_rows is not None:
            self.metrics.keep_first(manifest.metrics_rows)
        if not (self.directory / "best.pt").is_file():
            self._save_best()

    def run(
        self, report: Callable[[Progress, dict[str, Any]], None] | None = None
    ) -> Progress:
        """Iterate until the CPU budget (``config.cpu_hours``, all resumes) is spent.

        A new run with teacher games distils them first (iteration 0). The run stops
        before an iteration that would not fit: when less than half of the last
        iteration's CPU time is left. Iterations are whole (no game is cut at a clock),
        so the load of the machine changes how long a run takes, not what it plays.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        budget = self.config.cpu_hours * 3600
        if self._distillation_due():
            row = self.distil()
            if report is not None:
                report(self.progress, row)
        if not self.resumed or not (self.directory / "best.pt").is_file():
            self._save_best()
        while self.progress.cpu_seconds < budget and not self._next_would_overrun(
            budget
        ):
            row = self.iterate()
            if report is not None:
                report(self.progress, row)
        return self.progress

    def _next_would_overrun(self, budget: float) -> bool:
        last = self.last_iteration_cpu_seconds
        return last is not None and budget - self.progress.cpu_seconds < last / 2

    def _distillation_due(self) -> bool:
        teaching = self.config.distillation
        return (
            teaching.games > 0
            and self.progress.iteration == 0
            and self.progress.teacher_games == 0
        )

    def distil(self) -> dict[str, Any]:
        """Teach a new network the heuristic's moves; commit it as iteration 0."""
        started, cpu_started = time.monotonic(), time.process_time()
        rng = np.random.default_rng([self.config.seed, 2**20])
        teaching = self.config.distillation
        taught, losses = distil(
            self.learner, self.config.game, teaching, self.config.batch_size, rng
        )
        self.progress.teacher_games = taught.games
        self.progress.teacher_steps = len(losses)
        self.progress.train_steps = self.learner.steps
        self.progress.seconds += time.monotonic() - started
        self.progress.cpu_seconds += time.process_time() - cpu_started
        row = self._metrics_row(_mean_losses(losses[-max(1, len(losses) // 10) :]))
        row["note"] = (
            f"distilled {taught.games} heuristic games "
            f"({len(taught.values)} samples) in {len(losses)} steps"
            + (
                f": loss {losses[0].total:.3f} -> {losses[-1].total:.3f}"
                if losses
                else ""
            )
        )
        self._commit(row)
        self._save_best()
        return row

    def iterate(self) -> dict[str, Any]:
        """One iteration: self-play, learning, checkpoint, evaluation if due, logs."""
        started, cpu_started = time.monotonic(), time.process_time()
        rng = np.random.default_rng([self.config.seed, self.progress.iteration])
        result = self.self_play.play(
            self.network,
            self.device,
            self.config.game,
            self.config.self_play,
            rng,
        )
        self.replay.add(
            result.samples.planes, result.samples.policy, result.samples.value
        )
        losses = self._learn(len(result.samples.value), rng)
        self.progress.iteration += 1
        self.progress.games += result.games
        self.progress.samples += len(result.samples.value)
        evaluation = self._evaluate_if_due(rng)
        self.progress.seconds += time.monotonic() - started
        # Workers elsewhere report their own CPU time; this process's covers the rest.
        self.last_iteration_cpu_seconds = (
            time.process_time() - cpu_started + result.worker_cpu_seconds
        )
        self.progress.cpu_seconds += self.last_iteration_cpu_seconds
        row = {**self._metrics_row(losses), **evaluation}
        notes = self._notes(losses, result.unfinished)
        if notes:
            row["note"] = "; ".join(notes)
        self._commit(row)
        if evaluation.get("win_rate_vs_best", 0.0) >= self.config.gating_threshold:
            self._save_best()
        self._plot()
        return row

    def _notes(self, losses: LossTerms | None, unfinished: int) -> list[str]:
        """Why an iteration did less than a full one, in words for the log."""
        notes = []
        if losses is None:
            notes.append(
                f"no gradient steps yet: {len(self.replay)} samples in the replay, "
                f"learning starts at {self.config.min_replay} (--min-replay)"
            )
        if unfinished:
            notes.append(f"{unfinished} unfinished games dropped at the budget's end")
        return notes

    def _learn(self, new_samples: int, rng: np.random.Generator) -> LossTerms | None:
        if new_samples == 0 or len(self.replay) < self.config.min_replay:
            return None
        fraction = self.progress.cpu_seconds / (self.config.cpu_hours * 3600)
        self.learner.set_learning_rate(self.config.learner.learning_rate_at(fraction))
        steps = max(
            1, round(new_samples * self.config.sample_reuse / self.config.batch_size)
        )
        terms = [
            self.learner.step(self.replay.sample(self.config.batch_size, rng))
            for _ in range(steps)
        ]
        self.progress.train_steps = self.learner.steps
        return _mean_losses(terms)

    def _commit(self, row: dict[str, Any]) -> None:
        """Write the iteration's files, then the manifest that makes them the run's."""
        checkpoint = self.files.checkpoint_path(self.progress.iteration)
        replay = self.files.replay_path(self.progress.iteration)
        self.replay.save(replay)
        save_network(
            self.network,
            checkpoint,
            metadata=self.export_metadata(),
            extra={
                "optimizer": self.learner.optimizer.state_dict(),
                "progress": self.progress.to_dict(),
                "game": _game_dict(self.config),
            },
        )
        self.metrics.append(row)
        self.files.commit(
            Manifest(checkpoint.name, replay.name, len(self.metrics.rows))
        )
        every = self.config.snapshot_every
        if every and self.progress.iteration % every == 0:
            save_network(
                self.network,
                self.files.snapshot_path(self.progress.iteration),
                metadata=self.export_metadata(),
            )

    def _plot(self) -> None:
        """Redraw ``metrics.png``; without matplotlib, say so once and stop trying."""
        if not self.plot:
            return
        try:
            plot_metrics(self.metrics.path, self.directory / "metrics.png")
        except ImportError:
            self.plot = False
            LOGGER.warning(
                "matplotlib is not installed: metrics.png is not drawn "
                f"({install_hint('plot')} to get it)"
            )

    def _save_best(self) -> None:
        save_network(
            self.network, self.directory / "best.pt", metadata=self.export_metadata()
        )

    def export_metadata(self) -> dict[str, Any]:
        """What a weights file records about the run: the game, counters, settings."""
        return {
            "game": _game_dict(self.config),
            "progress": self.progress.to_dict(),
            "config": self.config.summary(),
        }

    def _metrics_row(self, losses: LossTerms | None) -> dict[str, Any]:
        hours = self.progress.seconds / 3600
        row: dict[str, Any] = {
            "iteration": self.progress.iteration,
            "games": self.progress.games,
            "samples": self.progress.samples,
            "train_steps": self.progress.train_steps,
            "hours": hours,
            "cpu_hours": self.progress.cpu_seconds / 3600,
            "games_per_hour": self.progress.games / hours if hours else None,
            "samples_per_hour": self.progress.samples / hours if hours else None,
        }
        if losses is not None:
            row.update(
                loss=losses.total, value_loss=losses.value, policy_loss=losses.policy
            )
        return row

    def _evaluate_if_due(self, rng: np.random.Generator) -> dict[str, Any]:
        every = self.config.evaluation_every
        if every == 0 or self.progress.iteration % every:
            return {}
        best_path = self.directory / "best.pt"
        best = network_from_payload(read_checkpoint(best_path), best_path)
        return evaluation_row(self.network, best, self.config, self.device, rng)


def _mean_losses(terms: list[LossTerms]) -> LossTerms | None:
    if not terms:
        return None
    means = np.mean([(t.total, t.value, t.policy) for t in terms], axis=0)
    return LossTerms(*(float(mean) for mean in means))


def _game_dict(config: TrainingConfig) -> dict[str, Any]:
    game = config.game
    return {
        "board_size": game.board_size,
        "win_length": game.win_length,
        "rule": game.rule.value,
    }


def _check_same_game(saved: dict[str, Any], wanted: dict[str, Any], path: Path) -> None:
    """Refuse to resume a run with another game: its data and network would not fit."""
    differences = [
        f"{name} {saved.get(name)} → {value}"
        for name, value in wanted.items()
        if saved.get(name) != value
    ]
    if differences:
        raise CheckpointError(
            f"{str(path)!r} is a run of another game ({', '.join(differences)}): "
            "resume it with its own settings, or use another --out folder"
        )
