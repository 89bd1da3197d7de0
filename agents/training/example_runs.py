"""What the RL-library examples share: their common arguments and their final evaluation.

Each example (``examples/tianshou_dqn.py``, ``torchrl_reinforce.py``, ``rllib_ppo.py``)
declares its arguments as a subclass of :class:`ExampleArgs` (the command line
comes from the fields, :func:`agents.specs.flags.parse_dataclass`), trains
:class:`agents.training.torch_policy.PolicyNetwork` through its library, saves it, and
then calls :func:`evaluate_policy_file`: the saved file is loaded back through the agent
spec ``python:agents.training.torch_policy:load_agent,path=...`` (as the arena and the
ladder load it) and plays ``random`` with both colours. The :class:`RunResult` it
returns is what the example prints and what its test checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from agents.specs.parse import make_agent
from agents.training.head_to_head import play_match
from agents.training.run_budget import RunBudget
from agents.training.torch_policy import PolicyNetwork, save_policy
from gomoku_env.action_counter import IllegalActionCounter
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_fields, option


@dataclass(frozen=True)
class ExampleArgs:
    """The arguments every library example takes; each adds its own in a subclass."""

    seed: int = option(
        0, help="seeds the envs, the sampling, torch and the evaluation games"
    )
    board_size: int = option(6, help="side of the board")
    win_length: int = option(4, help="stones in a row that win")
    steps: int = option(
        8_000,
        help="env steps to collect (both players' moves count)",
        minimum=1,
        maximum=10**9,
    )
    channels: int = option(32, help="width of the network's convolutions")
    eval_games: int = option(
        100, help="arena games against random, half with each colour"
    )
    policy_path: str = option(
        "out/policy.pt", help="where the trained network is saved"
    )
    cpu_hours: float | None = option(
        None,
        help=(
            "also stop once this process has used this many CPU hours (none: steps "
            "only)"
        ),
        above=0,
        maximum=1000,
    )
    checkpoints: int = option(
        0,
        help=(
            "networks saved along the run, evenly spaced in the budget "
            "(:class:`agents.training.run_budget.RunBudget`); 0 for none"
        ),
        minimum=0,
        maximum=1000,
    )

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def config(self) -> GameConfig:
        """The game of these arguments."""
        return GameConfig(self.board_size, self.win_length)


def run_budget(args: ExampleArgs, trainer: str) -> RunBudget[PolicyNetwork]:
    """The budget of an example's run (its steps, CPU hours and checkpoints), saving
    the network with :func:`agents.training.torch_policy.save_policy`, named by
    ``trainer``."""
    config = args.config

    def save(path: Path, network: PolicyNetwork) -> None:
        save_policy(path, network, config, trainer=trainer)

    return RunBudget(
        args.steps, args.cpu_hours, args.checkpoints, args.policy_path, save
    )


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
    spec = f"python:agents.training.torch_policy:load_agent,path={policy_path}"
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
