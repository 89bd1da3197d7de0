"""Who plays a training iteration's self-play games: this process, or workers elsewhere.

:class:`InProcessSelfPlay` (the default) plays one batch of ``parallel_games`` games
with the learner's own network, where it lives. :class:`ExecutorSelfPlay` plays
``jobs`` such batches on an :class:`agents.executors.Executor` (Ray workers on a
cluster, or local processes that each put the network on a GPU): each iteration it
publishes the network once (a versioned snapshot of its weights, which every worker
loads when the version changes), and each batch is seeded from the iteration's
generator, so the samples depend on the seed and the number of batches, never on which
worker played what or how often a worker died.
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import torch

from agents.alphazero.evaluator import NetworkEvaluator
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.replay import Batch
from agents.alphazero.selfplay import SelfPlay, SelfPlayResult, play_games
from agents.alphazero.training_config import NetworkConfig, SelfPlayConfig
from agents.executors import Executor, Shared
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number


class SelfPlayWorkers(Protocol):
    """Plays one iteration's self-play games with the current network."""

    def play(
        self,
        network: PolicyValueNet,
        device: torch.device,
        game: GameConfig,
        config: SelfPlayConfig,
        rng: np.random.Generator,
        deadline: float | None = None,
    ) -> SelfPlayResult:
        """The iteration's games; may draw seeds from ``rng``, the iteration's own.

        Play stops at ``deadline`` (a :func:`time.monotonic` value of this process),
        dropping the games not finished by then, as :meth:`SelfPlay.play` does.
        """
        ...


class InProcessSelfPlay:
    """One batch of ``config.parallel_games`` games here, on the learner's device."""

    def play(
        self,
        network: PolicyValueNet,
        device: torch.device,
        game: GameConfig,
        config: SelfPlayConfig,
        rng: np.random.Generator,
        deadline: float | None = None,
    ) -> SelfPlayResult:
        evaluator = NetworkEvaluator(network, device)
        return play_games(evaluator, game, config, rng, deadline)


@dataclass(frozen=True)
class NetworkSnapshot:
    """A network's weights as published to the workers: CPU tensors and a version."""

    publisher: str
    version: int
    config: NetworkConfig
    state_dict: dict[str, torch.Tensor]

    def build(self) -> PolicyValueNet:
        network = PolicyValueNet(self.config)
        network.load_state_dict(self.state_dict)
        return network


@dataclass(frozen=True)
class SelfPlayJob:
    """One batch of games for a worker: the rules, settings, seed and network."""

    game: GameConfig
    config: SelfPlayConfig
    seed: int
    version: tuple[str, int]
    """The snapshot's (publisher, version): a worker that has it loaded skips the load."""
    network: Shared[NetworkSnapshot]
    seconds_left: float | None = None
    """Time left when the job was sent (clocks differ between machines), or None."""
    learner_pid: int = 0
    """The learner's process: a job played there adds no worker CPU time, which the
    learner's own clock already counts."""
    device: str = "cpu"
    """Where the worker runs the network: ``cpu``, or ``cuda`` when the workers are
    processes of a GPU machine (each then holds its own copy on the GPU)."""


_LOADED: dict[str, Any] = {}
"""This worker process's copy of the network: its version and evaluator."""


def play_job(job: SelfPlayJob) -> SelfPlayResult:
    """Play ``job``'s batch (in a worker), loading its network if its version is new."""
    if _LOADED.get("version") != (job.version, job.device):
        network = job.network.get().build()
        _LOADED.update(
            version=(job.version, job.device),
            evaluator=NetworkEvaluator(network, job.device),
        )
    deadline = None
    if job.seconds_left is not None:
        deadline = time.monotonic() + job.seconds_left
    self_play = SelfPlay(job.game, job.config, job.seed)
    cpu_started = time.process_time()
    result = self_play.play(_LOADED["evaluator"], deadline=deadline)
    if os.getpid() != job.learner_pid:
        result.worker_cpu_seconds = time.process_time() - cpu_started
    return result


def merge_results(results: list[SelfPlayResult]) -> SelfPlayResult:
    """The batches' results as one: samples in batch order, counts added up."""
    samples = Batch(
        np.concatenate([result.samples.planes for result in results]),
        np.concatenate([result.samples.policy for result in results]),
        np.concatenate([result.samples.value for result in results]),
    )
    return SelfPlayResult(
        samples,
        *(
            sum(getattr(result, name) for result in results)
            for name in (
                "games",
                "moves",
                "simulations",
                "black_wins",
                "draws",
                "unfinished",
                "worker_cpu_seconds",
            )
        ),
    )


class ExecutorSelfPlay:
    """``jobs`` batches of ``parallel_games`` games per iteration on ``executor``.

    Workers play on their CPU unless ``device`` names another device for them. With
    ``jobs=1`` the games are the ones :class:`InProcessSelfPlay` plays for the same
    seed.

    Args:
        executor: where the batches run; it stays open for the run, so its workers
            keep their network between iterations.
        jobs: batches per iteration; default one per worker of ``executor``.
        device: where each worker runs its copy of the network (``cuda``: the worker
            processes of one GPU machine share its GPU, each searching on its core).
    """

    def __init__(
        self, executor: Executor, jobs: int | None = None, device: str = "cpu"
    ) -> None:
        self.executor = executor
        self.jobs = executor.workers if jobs is None else jobs
        check_number("jobs", self.jobs, minimum=1, integer=True)
        self.device = device
        self.publisher = uuid.uuid4().hex
        self.version = 0

    def publish(self, network: PolicyValueNet) -> Shared[NetworkSnapshot]:
        """Send the current weights to the workers once: a new version."""
        self.version += 1
        state = {
            name: tensor.detach().to("cpu", copy=True)
            for name, tensor in network.state_dict().items()
        }
        snapshot = NetworkSnapshot(self.publisher, self.version, network.config, state)
        return self.executor.share(snapshot)

    def play(
        self,
        network: PolicyValueNet,
        device: torch.device,
        game: GameConfig,
        config: SelfPlayConfig,
        rng: np.random.Generator,
        deadline: float | None = None,
    ) -> SelfPlayResult:
        shared = self.publish(network)
        version = (self.publisher, self.version)
        left = None if deadline is None else deadline - time.monotonic()
        jobs = [
            SelfPlayJob(
                game,
                config,
                int(rng.integers(2**31)),
                version,
                shared,
                left,
                learner_pid=os.getpid(),
                device=self.device,
            )
            for _ in range(self.jobs)
        ]
        results = dict(self.executor.map_unordered(play_job, jobs))
        return merge_results([results[position] for position in range(len(jobs))])
