"""Self-play on workers: the same games as in this process for the same seed and split;
on Ray, the same samples and gradient steps as locally, resumed after a kill, and no
game lost when a worker dies."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.alphazero import selfplay_workers
from agents.alphazero.evaluator import NetworkEvaluator
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.selfplay import play_games
from agents.alphazero.selfplay_workers import ExecutorSelfPlay
from agents.alphazero.trainer import Progress, TrainingRun
from agents.executors import InlineExecutor
from agents.executors.ray_cluster import RayExecutor
from gomoku_env.config import GameConfig
from tests.agents.alphazero.test_trainer import QUICK

TINY_GAME = dataclasses.replace(QUICK, game=GameConfig(5, 4))


def _counts(progress: Progress) -> tuple[int, int, int, int]:
    return (progress.iteration, progress.games, progress.samples, progress.train_steps)


def _same_network(first: TrainingRun, second: TrainingRun) -> None:
    for name, tensor in first.network.state_dict().items():
        torch.testing.assert_close(second.network.state_dict()[name], tensor)


def _run(directory: Path, executor: object, jobs: int | None = None) -> TrainingRun:
    """A tiny run whose self-play plays ``jobs`` batches on ``executor``."""
    workers = ExecutorSelfPlay(executor, jobs)
    return TrainingRun(TINY_GAME, directory, plot=False, self_play=workers)


def _local_run(directory: Path, iterations: int, jobs: int) -> TrainingRun:
    run = _run(directory, InlineExecutor(), jobs)
    for _ in range(iterations):
        run.iterate()
    return run


def test_one_batch_on_an_executor_is_the_in_process_self_play() -> None:
    network = PolicyValueNet(TINY_GAME.network)
    config = TINY_GAME.self_play
    here = play_games(
        NetworkEvaluator(network), TINY_GAME.game, config, np.random.default_rng(4)
    )
    workers = ExecutorSelfPlay(InlineExecutor(), jobs=1)
    there = workers.play(
        network, torch.device("cpu"), TINY_GAME.game, config, np.random.default_rng(4)
    )
    assert there.games == here.games == config.parallel_games
    assert (there.moves, there.simulations) == (here.moves, here.simulations)
    np.testing.assert_array_equal(there.samples.planes, here.samples.planes)
    np.testing.assert_array_equal(there.samples.value, here.samples.value)


def test_batches_split_an_iteration_into_seeded_jobs(tmp_path: Path) -> None:
    run = _local_run(tmp_path, iterations=1, jobs=3)
    assert run.progress.games == 3 * TINY_GAME.self_play.parallel_games
    assert len(run.replay) == run.progress.samples > 0
    with pytest.raises(ValueError, match="jobs must be an int >= 1, got 0"):
        ExecutorSelfPlay(InlineExecutor(), jobs=0)


def test_workers_cpu_time_counts_toward_the_budget_once(monkeypatch) -> None:
    """A batch played in another process reports its CPU time (the learner's clock
    does not see it); one played in the learner's process reports none, so no CPU
    second is counted twice."""
    network = PolicyValueNet(TINY_GAME.network)
    workers = ExecutorSelfPlay(InlineExecutor(), jobs=2)

    def worker_cpu_seconds(pids: list[int]) -> float:
        """Self-play whose ``os.getpid()`` answers ``pids`` in turn: the learner's
        first, then each job's."""
        answers = iter(pids)
        monkeypatch.setattr(selfplay_workers.os, "getpid", lambda: next(answers))
        result = workers.play(
            network,
            torch.device("cpu"),
            TINY_GAME.game,
            TINY_GAME.self_play,
            np.random.default_rng(4),
        )
        return result.worker_cpu_seconds

    assert worker_cpu_seconds([7, 7, 7, 7, 7]) == 0.0
    assert worker_cpu_seconds([1, 1, 2, 3, 3]) > 0


class _KillAllAfterFirst:
    """An executor that kills every Ray worker once, after the first result arrives."""

    def __init__(self, executor: RayExecutor, ray) -> None:
        self.executor, self.ray, self.killed = executor, ray, False
        self.workers = executor.workers
        self.share = executor.share

    def map_unordered(
        self, function: Callable, items: Sequence
    ) -> Iterator[tuple[int, object]]:
        for position, result in self.executor.map_unordered(function, items):
            if not self.killed:
                self.killed = True
                for actor in self.executor.actors:
                    self.ray.kill(actor)
            yield position, result


@pytest.mark.usefixtures("ray_cluster")
class TestOnRay:
    def test_training_on_ray_matches_the_local_run_and_resumes_after_a_kill(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        local = _local_run(tmp_path / "local", iterations=3, jobs=2)
        with RayExecutor(workers=2) as executor:
            on_ray = _run(tmp_path / "ray", executor)
            on_ray.iterate()
            on_ray.iterate()
            with monkeypatch.context() as patch:
                # Killed after the workers' games came back, before the learner
                # took them: the third iteration is lost, the files are the second's.
                patch.setattr(selfplay_workers, "merge_results", _interrupt)
                with pytest.raises(KeyboardInterrupt):
                    on_ray.iterate()
            resumed = _run(tmp_path / "ray", executor)
            assert resumed.resumed and resumed.progress.iteration == 2
            resumed.iterate()
        assert _counts(resumed.progress) == _counts(local.progress)
        assert resumed.replay.total_added == local.replay.total_added
        _same_network(local, resumed)

    def test_workers_killed_mid_iteration_lose_no_game(
        self, tmp_path: Path, ray_cluster
    ) -> None:
        local = _local_run(tmp_path / "local", iterations=2, jobs=2)
        with RayExecutor(workers=2) as executor:
            killer = _KillAllAfterFirst(executor, ray_cluster)
            on_ray = _run(tmp_path / "ray", killer)
            on_ray.iterate()
            on_ray.iterate()
            # Both workers died; each was replaced, by the first iteration when it
            # still held a batch, or else by the second, which found it dead.
            assert executor.replaced == 2
        assert _counts(on_ray.progress) == _counts(local.progress)
        _same_network(local, on_ray)


def _interrupt(*args: object) -> None:
    raise KeyboardInterrupt("killed")
