"""The PPO recipe: a warm start on the teacher games, then PPO against the heuristic.

Two phases, both on the compiled vector env (:class:`GomokuVectorEnv`), every PPO game
starting from a few random stones near the centre, as evaluation games start from the
arena's opening book:

1. **Warm start** (:mod:`agents.ppo.warm_start`, ``teacher.games`` > 0): supervised
   steps on the teacher games that AlphaZero distils too
   (:mod:`agents.training.teacher_games`); the network then plays about as well as its
   teacher.
2. **PPO** against the heuristic (:mod:`agents.ppo.rollout`): clipped surrogate,
   generalised advantage estimation, an entropy bonus, rewards +1/-1/0 at the end of
   a game. A curriculum keeps the reward informative: a share of the opponent's moves
   is random, and after each update the share falls while the learner wins more than
   half its games (rises while it wins less), down to the plain heuristic.

:class:`PPORun` runs both in one folder and stops at ``env_steps`` or ``cpu_hours`` (the
process's CPU time for training, evaluations left out). The folder holds
``checkpoint.pt`` (network, optimiser, counters; written atomically after the warm
start and every ``checkpoint_every`` steps, so the same run resumes where a stopped one
left off), the policy at each of those steps as ``policy-<env steps>.pt``, listed in
``checkpoints.csv`` (:mod:`agents.training.run_budget`: for a learning curve measured
afterwards), and the final ``policy.pt``
(:func:`agents.training.torch_policy.save_policy`, with the recipe in its metadata).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from agents.ppo.config import PPOConfig
from agents.ppo.rollout import NoisyHeuristic, collect, ppo_update
from agents.ppo.warm_start import warm_start
from agents.training.run_budget import (
    CHECKPOINTS_FILE,
    checkpoint_row,
    read_checkpoint_rows,
    write_checkpoint_rows,
)
from agents.training.torch_policy import (
    PolicyNetwork,
    PolicyShape,
    load_checked_state,
    read_weights_file,
    save_policy,
)
from gomoku_env.fields import check_fields, option
from gomoku_env.files import WEIGHTS_LIMIT, write_atomically
from gomoku_env.vector_env import GomokuVectorEnv

SECONDS_PER_HOUR = 3600.0
RESULT_FILE = "policy.pt"
"""The trained policy in the run folder, written at the end of every run."""


@dataclass
class RunState:
    """What a run has done so far (saved in its checkpoint)."""

    env_steps: int = option(0, help="the learner's env steps", minimum=0)
    cpu_seconds: float = option(0.0, help="CPU seconds spent", minimum=0)
    wall_seconds: float = option(0.0, help="wall seconds spent", minimum=0)
    warm_started: bool = option(False, help="the warm start is done")
    updates: int = option(0, help="PPO updates made", minimum=0)
    opponent_noise: float = option(
        0.0, help="the noisy heuristic's noise", minimum=0, maximum=1
    )

    def __post_init__(self) -> None:
        check_fields(self)  # a checkpoint's counters: finite, in range
        if not isinstance(self.warm_started, bool):
            raise TypeError(f"warm_started must be a bool, got {self.warm_started!r}")

    @property
    def cpu_hours(self) -> float:
        return self.cpu_seconds / SECONDS_PER_HOUR


class CpuClock:
    """Adds the process's CPU time to ``state.cpu_seconds`` (and the wall time to
    ``state.wall_seconds``), except while paused."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.started = time.process_time()
        self.started_wall = time.monotonic()

    def tick(self) -> None:
        now, now_wall = time.process_time(), time.monotonic()
        self.state.cpu_seconds += now - self.started
        self.state.wall_seconds += now_wall - self.started_wall
        self.started, self.started_wall = now, now_wall

    def paused(self, work: Callable[[], None]) -> None:
        """Run ``work`` without counting its CPU time."""
        self.tick()
        work()
        self.started, self.started_wall = time.process_time(), time.monotonic()


def save_checkpoint(
    path: Path,
    network: PolicyNetwork,
    optimizer: torch.optim.Optimizer,
    state: RunState,
    config: PPOConfig,
) -> None:
    """Write everything a resumed run needs, atomically (plain tensors and numbers)."""
    checkpoint = {
        "config": dataclasses.asdict(config),
        "state": dataclasses.asdict(state),
        "network": network.state_dict(),
        "optimizer": optimizer.state_dict(),
    }
    write_atomically(path, lambda temporary: torch.save(checkpoint, temporary))


def load_checkpoint(
    path: Path,
    network: PolicyNetwork,
    optimizer: torch.optim.Optimizer,
    config: PPOConfig,
) -> RunState:
    """The counters of the run saved at ``path``, its weights loaded into ``network``
    and ``optimizer``.

    Raises:
        ValueError: the checkpoint is of a run with other settings (the run folder
            belongs to another recipe).
    """
    path, checkpoint = read_weights_file(path, "PPO checkpoint", WEIGHTS_LIMIT)
    try:
        saved = {"rule": "freestyle", **checkpoint["config"]}  # runs before --rule
        state = RunState(**checkpoint["state"])
        weights, optimizer_state = checkpoint["network"], checkpoint["optimizer"]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{str(path)!r} is not a PPO checkpoint: {error}") from None
    ours = dataclasses.asdict(config)
    changed = {
        name: (saved.get(name), ours[name])
        for name in ("board_size", "win_length", "rule", "channels", "layers")
        if saved.get(name) != ours[name]
    }
    if changed:
        raise ValueError(
            f"{str(path)!r} is a run with other settings (saved, asked): {changed}; "
            "use another run folder"
        )
    load_checked_state(network, weights, str(path))
    try:
        optimizer.load_state_dict(optimizer_state)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(
            f"{str(path)!r}: its optimizer state does not fit: {error}"
        ) from None
    return state


Report = Callable[[RunState, dict[str, Any]], None]
"""Called with the counters and a row of figures (a ``note`` in words, if any)."""
PointCallback = Callable[[PolicyNetwork, RunState], None]


class PPORun:
    """One PPO run in ``directory``, resumed from its checkpoint when it has one.

    Raises:
        ValueError: the folder's checkpoint is of a run with another board or network.
    """

    def __init__(self, config: PPOConfig, directory: str | Path) -> None:
        self.config = config
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        torch.manual_seed(config.seed)
        torch.set_num_threads(config.threads)
        self.generator = torch.Generator().manual_seed(config.seed)
        self.network = PolicyNetwork(
            PolicyShape(config.channels, config.layers, border=True)
        )
        self.optimizer = torch.optim.Adam(
            self.network.parameters(), lr=config.learning_rate
        )
        self.checkpoint = self.directory / "checkpoint.pt"
        self.resumed = self.checkpoint.exists()
        self.state = RunState(opponent_noise=config.opponent_noise)
        if self.resumed:
            self.state = load_checkpoint(
                self.checkpoint, self.network, self.optimizer, config
            )

    def run(
        self,
        report: Report | None = None,
        on_point: PointCallback | None = None,
        point_every: int = 0,
    ) -> RunState:
        """Warm-start (once), then PPO until the budget; write ``policy.pt``.

        ``report(state, row)`` gets the warm start's losses and, every
        ``report_every`` updates, the training games' figures; ``on_point(network,
        state)`` runs at the start of PPO and every ``point_every`` env steps (0: only
        at the start and the end), its CPU time not counted.
        """
        report = report or (lambda state, row: None)
        clock = CpuClock(self.state)
        if not self.state.warm_started:
            self._warm_start(clock, report)
        point = _points(self.network, self.state, clock, on_point, point_every)
        point(force=True)
        self._ppo(clock, point, report)
        clock.tick()
        self._keep_policy()
        self._save()
        point(force=True)
        self._save_policy(self.directory / RESULT_FILE)
        return self.state

    def _save_policy(self, path: Path) -> None:
        save_policy(
            path, self.network, self.config.game,
            recipe=dataclasses.asdict(self.config), env_steps=self.state.env_steps,
            cpu_hours=self.state.cpu_hours,
        )  # fmt: skip

    def _keep_policy(self) -> None:
        """Keep the policy as it is now as ``policy-<env steps>.pt``, listed in
        ``checkpoints.csv`` (once per step count: a resumed run may reach one
        again), for a learning curve measured afterwards."""
        listing = self.directory / CHECKPOINTS_FILE
        rows = read_checkpoint_rows(listing)
        steps = self.state.env_steps
        if any(int(row["steps"]) == steps for row in rows):
            return
        name = f"{Path(RESULT_FILE).stem}-{steps:09d}.pt"
        self._save_policy(self.directory / name)
        state = self.state
        row = checkpoint_row(name, steps, state.cpu_seconds, state.wall_seconds)
        write_checkpoint_rows(listing, [*rows, row])

    def _warm_start(self, clock: CpuClock, report: Report) -> None:
        if self.config.teacher.games:
            losses = warm_start(self.network, self.config, self.generator)
            note = f"warm start on {self.config.teacher.games} teacher games"
            report(self.state, {**losses, "note": f"{note}: {_format(losses)}"})
        self.state.warm_started = True
        clock.tick()
        self._save()

    def _ppo(self, clock: CpuClock, point: Callable[..., None], report: Report) -> None:
        config, state = self.config, self.state
        opponent = NoisyHeuristic(
            config.game, state.opponent_noise, config.noise_step, config.seed
        )
        envs = GomokuVectorEnv(
            config.num_envs, opponent, config=config.game, play_as="random",
            random_opening=config.random_opening,
        )  # fmt: skip
        observations, _ = envs.reset(seed=config.seed + state.updates)
        wins = games = 0
        next_checkpoint = state.env_steps + config.checkpoint_every
        while state.env_steps < config.env_steps and not _out_of_time(config, state):
            rollout, observations, finished = collect(
                self.network, envs, observations, config.rollout_steps
            )
            stats = ppo_update(
                self.network, self.optimizer, rollout, config, self.generator
            )
            state.env_steps += rollout.actions.numel()
            state.updates += 1
            won = int((rollout.rewards > 0).sum())
            opponent.adapt(won / max(finished, 1))
            state.opponent_noise = opponent.noise
            games, wins = games + finished, wins + won
            clock.tick()
            if state.updates % config.report_every == 0:
                row = {"won": wins / max(games, 1), "games": games, **stats}
                report(state, {**row, "opponent_noise": opponent.noise})
                wins = games = 0
            if state.env_steps >= next_checkpoint:
                next_checkpoint += config.checkpoint_every
                self._keep_policy()
                self._save()
            point()

    def _save(self) -> None:
        save_checkpoint(
            self.checkpoint, self.network, self.optimizer, self.state, self.config
        )


def _points(
    network: PolicyNetwork,
    state: RunState,
    clock: CpuClock,
    on_point: PointCallback | None,
    every: int,
) -> Callable[..., None]:
    """A function that calls ``on_point`` when due (or forced), off the CPU clock,
    at most once per env-step count."""
    last = {"steps": -1, "next": state.env_steps + every}

    def point(force: bool = False) -> None:
        due = every and state.env_steps >= last["next"]
        if on_point is None or last["steps"] == state.env_steps or not (force or due):
            return
        last["steps"] = state.env_steps
        while every and last["next"] <= state.env_steps:
            last["next"] += every
        clock.paused(lambda: on_point(network.eval(), state))

    return point


def _out_of_time(config: PPOConfig, state: RunState) -> bool:
    return bool(config.cpu_hours) and state.cpu_hours >= config.cpu_hours


def _format(numbers: dict[str, float]) -> str:
    return "  ".join(f"{name} {value:.3f}" for name, value in numbers.items())
