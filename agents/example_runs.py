"""What the RL-library examples share: their common arguments and their final evaluation.

Each example (``examples/tianshou_dqn.py``, ``torchrl_reinforce.py``, ``rllib_ppo.py``)
declares its arguments as a subclass of :class:`ExampleArgs` (the command line
comes from the fields, :func:`agents.flags.parse_dataclass`), trains
:class:`agents.torch_policy.PolicyNetwork` through its library, saves it, and
then calls :func:`evaluate_policy_file`: the saved file is loaded back through the agent
spec ``python:agents.torch_policy:load_agent,path=...`` (as the arena and the ladder load
it) and plays ``random`` with both colours. The :class:`RunResult` it returns is what the
example prints and what its test checks.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from agents.head_to_head import play_match
from agents.options import bounded, check_fields
from agents.specs import make_agent
from agents.torch_policy import PolicyNetwork, save_policy
from gomoku_env.action_counter import IllegalActionCounter
from gomoku_env.config import GameConfig
from gomoku_env.files import write_text_atomically


@dataclass(frozen=True)
class ExampleArgs:
    """The arguments every library example takes; each adds its own in a subclass."""

    seed: int = 1
    """seed of the envs, the sampling, torch and the evaluation games"""
    board_size: int = 6
    """side of the board"""
    win_length: int = 4
    """stones in a row that win"""
    steps: int = bounded(8_000, minimum=1, maximum=10**9)
    """env steps to collect (both players' moves count)"""
    channels: int = 32
    """width of the network's convolutions"""
    eval_games: int = 100
    """arena games against random, half with each colour"""
    policy_path: str = "out/policy.pt"
    """where the trained network is saved"""
    cpu_hours: float | None = bounded(None, above=0, maximum=1000)
    """also stop once this process has used this many CPU hours (none: steps only)"""
    checkpoints: int = bounded(0, minimum=0, maximum=1000)
    """networks saved along the run, evenly spaced in the budget (see
    :class:`RunBudget`); 0 for none"""

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def config(self) -> GameConfig:
        """The game of these arguments."""
        return GameConfig(self.board_size, self.win_length)


CHECKPOINT_COLUMNS = ("path", "steps", "cpu_seconds", "wall_seconds")
"""The columns of a run's ``checkpoints.csv``."""


class RunBudget:
    """A training run's budget, env steps or CPU hours (whichever ends first), and
    the networks saved along it.

    The loop of an example calls :meth:`spent` with the steps collected so far after
    each batch: at each ``k / checkpoints`` of the budget (of whichever of the two is
    further along) it saves the network as ``<policy_path stem>-<steps>.pt`` and adds a
    row to ``checkpoints.csv`` beside it (:data:`CHECKPOINT_COLUMNS`), so the run's
    learning curve can be measured afterwards (``scripts/zoo.py``). CPU time is this
    process's (``time.process_time``: every thread, no other process).
    """

    def __init__(self, args: ExampleArgs, trainer: str) -> None:
        self.args = args
        self.trainer = trainer
        self.saved = 0
        self.steps = 0
        self.started_cpu = time.process_time()
        self.started_wall = time.monotonic()
        self.path = Path(args.policy_path)
        self.rows: list[dict[str, object]] = []

    def cpu_seconds(self) -> float:
        """CPU seconds this process has used since the run started."""
        return time.process_time() - self.started_cpu

    def progress(self, steps: int) -> float:
        """How much of the budget ``steps`` (and the CPU used) is: 1 when spent."""
        done = steps / self.args.steps
        if self.args.cpu_hours is not None:
            done = max(done, self.cpu_seconds() / (3600 * self.args.cpu_hours))
        return done

    def spent(self, steps: int, network: PolicyNetwork) -> bool:
        """Save ``network`` for each checkpoint that ``steps`` (and the CPU used) has
        reached; whether the budget is spent."""
        self.steps = steps
        progress = self.progress(steps)
        count = self.args.checkpoints
        reached = min(count, int(progress * count))
        if reached > self.saved:
            self.saved = reached
            self.save_checkpoint(steps, network)
        return progress >= 1

    def finish(self, network: PolicyNetwork) -> None:
        """Save the final ``network`` as the last checkpoint, unless it is saved (a
        run whose batches do not divide its steps ends short of the last one)."""
        if self.args.checkpoints and (
            not self.rows or self.rows[-1]["steps"] != self.steps
        ):
            self.save_checkpoint(self.steps, network)

    def save_checkpoint(self, steps: int, network: PolicyNetwork) -> Path:
        """Save ``network`` as it is after ``steps`` env steps, and list it."""
        path = self.path.with_name(f"{self.path.stem}-{steps:09d}{self.path.suffix}")
        save_policy(path, network, self.args.config, trainer=self.trainer)
        self.rows.append(
            {
                "path": path.name,
                "steps": steps,
                "cpu_seconds": f"{self.cpu_seconds():.1f}",
                "wall_seconds": f"{time.monotonic() - self.started_wall:.1f}",
            }
        )
        text = io.StringIO()
        writer = csv.DictWriter(text, CHECKPOINT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        write_text_atomically(self.path.with_name("checkpoints.csv"), text.getvalue())
        return path


@dataclass(frozen=True)
class RunResult:
    """What a training run achieved.

    Attributes:
        score_vs_random: the saved policy's arena score against random (win 1, draw 1/2).
        wins, draws, losses: the evaluation games.
        env_actions: actions that reached the training envs.
        illegal_actions: those the action mask forbade (0 when the mask was respected).
        policy_path: the saved network.
    """

    score_vs_random: float
    wins: int
    draws: int
    losses: int
    env_actions: int
    illegal_actions: int
    policy_path: str


def evaluate_policy_file(
    policy_path: str,
    config: GameConfig,
    games: int,
    seed: int,
    counters: Iterable[IllegalActionCounter],
) -> RunResult:
    """Play the saved policy against random in the arena; add up the env counters."""
    counters = list(counters)
    spec = f"python:agents.torch_policy:load_agent,path={policy_path}"
    score = play_match(
        make_agent(spec, config),
        make_agent("random", config, seed=seed),
        config,
        games,
        seed=seed,
        random_opening=0,
    )
    return RunResult(
        score.score,
        score.wins,
        score.draws,
        score.losses,
        sum(counter.actions for counter in counters),
        sum(counter.illegal_actions for counter in counters),
        policy_path,
    )
