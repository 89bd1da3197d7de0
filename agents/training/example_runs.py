"""What the RL-library examples share: their common arguments and their final evaluation.

Each example (``examples/tianshou_dqn.py``, ``torchrl_reinforce.py``, ``rllib_ppo.py``)
declares its arguments as a subclass of :class:`ExampleArgs` (the command line
comes from the fields, :func:`agents.specs.flags.parse_dataclass`), trains
:class:`agents.training.torch_policy.PolicyNetwork` through its library, saves it, and
then calls :func:`evaluate_policy_file`: the saved file is loaded back through the agent
spec ``python:agents.training.torch_policy:load_agent,path=...`` (as the arena and the
ladder load it) and plays ``random`` with both colours. The :class:`RunResult` it
returns is what the example prints and what its test checks.

The learner's opponent is ``--opponent`` (default ``curriculum``: anchors of the
board's rating scale near the learner's running rating, so the board defaults to 9x9
with five in a row, where the shipped ``9x9-v1`` scale is). :class:`TrainingEnvs`
puts it in the other seat of each training env (:class:`OpponentSeat`): the library
moves only for the learner, and every env of a run shares one curriculum, so the run
has one running rating, the example's progress line. :func:`new_network` is the
network every example starts from: random weights, or (``--teacher-games``) the PPO
recipe's warm start on the heuristic's moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import torch

import gomoku_env
from agents.curriculum import CurriculumOpponent
from agents.ppo.config import TEACHER_PRESET, PPOConfig
from agents.ppo.warm_start import warm_start
from agents.specs.parse import make_agent
from agents.training.head_to_head import play_match
from agents.training.run_budget import RunBudget
from agents.training.torch_policy import PolicyNetwork, PolicyShape, save_policy
from gomoku_env.action_counter import IllegalActionCounter
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_fields, option
from gomoku_env.opponent_seat import OpponentSeat
from gomoku_env.opponents import BatchOpponent


@dataclass(frozen=True)
class ExampleArgs:
    """The arguments every library example takes; each adds its own in a subclass."""

    seed: int = option(
        0, help="seeds the envs, the sampling, torch and the evaluation games"
    )
    board_size: int = option(9, help="side of the board")
    win_length: int = option(5, help="stones in a row that win")
    opponent: str = option(
        "curriculum",
        help=(
            "agent spec of the learner's opponent: curriculum (each game an anchor "
            "of the board's rating scale near the learner's running rating; 9x9 and "
            "15x15, five in a row), random, heuristic, ..."
        ),
    )
    steps: int = option(
        8_000,
        help="env steps to collect (both players' moves count)",
        minimum=1,
        maximum=10**9,
    )
    channels: int = option(
        32, help="width of the network's 3x3 convolutions", minimum=1, maximum=512
    )
    layers: int = option(3, help="number of 3x3 convolutions", minimum=1, maximum=40)
    border: bool = option(
        False,
        help=(
            "give the network a plane of ones, so that the convolutions' zero padding "
            "marks the board's edge (the PPO recipe's network has it)"
        ),
    )
    eval_games: int = option(
        100,
        help="arena games against random, half with each colour",
        minimum=0,
        maximum=100_000,
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
    teacher_games: int = option(
        0,
        help=(
            "heuristic games the network imitates before the library trains it: "
            "the warm start of the PPO recipe (:mod:`agents.ppo.warm_start`, 8000 "
            "games there); 0 starts from random weights"
        ),
        minimum=0,
        maximum=100_000,
    )

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def config(self) -> GameConfig:
        """The game of these arguments."""
        return GameConfig(self.board_size, self.win_length)


@dataclass(frozen=True)
class AnchoredExampleArgs(ExampleArgs):
    """The arguments of an example whose loss can hold the policy near its warm start
    (:mod:`agents.training.policy_anchor`: TorchRL's and Tianshou's)."""

    anchor_weight: float = option(
        0.0,
        help=(
            "weight of the KL divergence from the warm-started network's moves to the "
            "policy's, a loss term that holds the policy near its warm start (needs "
            "--teacher-games; 0: none)"
        ),
        minimum=0.0,
        maximum=1000.0,
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.anchor_weight and not self.teacher_games:
            raise ValueError(
                f"--anchor-weight {self.anchor_weight} needs --teacher-games: the "
                "anchor is the warm-started network, and random weights are no anchor"
            )


def new_network(args: ExampleArgs) -> PolicyNetwork:
    """The example's network: random weights from torch's generator, then, with
    ``args.teacher_games``, the PPO recipe's warm start on that many teacher games of
    the example's board, seeded by ``args.seed``; the warm start's agreement with the
    teacher is printed."""
    network = PolicyNetwork(PolicyShape(args.channels, args.layers, args.border))
    if args.teacher_games:
        recipe = PPOConfig(
            board_size=args.board_size,
            win_length=args.win_length,
            teacher=replace(TEACHER_PRESET, games=args.teacher_games),
            seed=args.seed,
        )
        generator = torch.Generator().manual_seed(args.seed)
        losses = warm_start(network, recipe, generator)
        print(
            f"warm start on {args.teacher_games} teacher games: the network's top "
            f"move is one of the teacher's best in {losses['agreement']:.0%}"
        )
    return network


def run_budget(args: ExampleArgs, trainer: str) -> RunBudget[PolicyNetwork]:
    """The budget of an example's run (its steps, CPU hours and checkpoints), saving
    the network with :func:`agents.training.torch_policy.save_policy`, named by
    ``trainer``. Its CPU hours are the process's from its start, so a warm start
    (``--teacher-games``) counts in them, as SB3's does."""
    config = args.config

    def save(path: Path, network: PolicyNetwork) -> None:
        save_policy(path, network, config, trainer=trainer)

    return RunBudget(
        args.steps, args.cpu_hours, args.checkpoints, args.policy_path, save,
        started_cpu=0.0,
    )  # fmt: skip


class TrainingEnvs:
    """The AEC envs an example trains on: each ``gomoku_env.env`` under an
    :class:`IllegalActionCounter`, the opponent of ``args.opponent`` in the seat the
    learner leaves (:class:`OpponentSeat`).

    An opponent that answers many games at once (the curriculum) is built once and
    shared, each env one of its game slots; any other is built for each env.
    """

    def __init__(self, args: ExampleArgs) -> None:
        self.args = args
        self.counters: list[IllegalActionCounter] = []
        self.seats: list[OpponentSeat] = []
        self.shared: BatchOpponent | None = None

    def make(self, learner: str, opponent_leaves: bool = False) -> OpponentSeat:
        """A new env whose learner is ``learner`` (an agent, or ``"random"``: drawn
        for each game); ``opponent_leaves`` as :class:`OpponentSeat` takes it."""
        args, slot = self.args, len(self.seats)
        counter = IllegalActionCounter(
            gomoku_env.env(board_size=args.board_size, win_length=args.win_length)
        )
        opponent = self.shared or make_agent(
            args.opponent, args.config, seed=args.seed + slot
        )
        if isinstance(opponent, BatchOpponent):
            self.shared = opponent
        seat = OpponentSeat(
            counter, opponent, learner, slot, opponent_leaves,
            name=args.opponent, seed=args.seed + slot,
        )  # fmt: skip
        self.counters.append(counter)
        self.seats.append(seat)
        return seat

    def env_steps(self) -> int:
        """The moves of both players that reached the envs: the run's budget."""
        return sum(counter.actions for counter in self.counters)

    def games(self) -> Counter[str]:
        """The finished training games by opponent (the anchors' specs for the
        curriculum)."""
        return sum((seat.opponents for seat in self.seats), Counter())

    def progress(self) -> str:
        """The games so far and, against the curriculum, the learner's running
        rating: the run's rating curve, one point per progress line."""
        games = sum(self.games().values())
        if not isinstance(self.shared, CurriculumOpponent):
            return f"{games} games against {self.args.opponent}"
        return (
            f"{games} games, learner rating {round(self.shared.rating)} on "
            f"{self.shared.scale}"
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
        training_games: the finished training games by opponent (the curriculum's
            anchors by spec).
    """

    score_vs_random: float
    wins: int
    draws: int
    losses: int
    env_actions: int
    illegal_actions: int
    policy_path: str
    training_games: dict[str, int] = field(default_factory=dict)


def evaluate_policy_file(
    policy_path: str,
    config: GameConfig,
    games: int,
    seed: int,
    counters: Iterable[IllegalActionCounter],
    envs: TrainingEnvs | None = None,
) -> RunResult:
    """Play the saved policy against random in the arena; add up the env counters
    and the training games of ``envs``."""
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
        dict(envs.games()) if envs else {},
    )
