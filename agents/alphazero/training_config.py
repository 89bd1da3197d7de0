"""The settings of an AlphaZero training run, with CPU-friendly defaults.

The network's shape, the optimiser, self-play and the run itself are fields of the
dataclasses here (type, default, range, meaning), from which ``gomoku train`` makes
its flags. Others are declared where they are used and gathered here: the teacher
games' (:class:`agents.training.teacher_games.TeacherGamesConfig`), the game's
(:class:`gomoku_env.config.GameConfig`) and self-play's search settings, the agents'
own :class:`agents.budget.Budget` (a move's simulations) and
:class:`agents.search.SearchOptions` (the preset :data:`agents.search.SELF_PLAY_PRESET`).
This module needs no torch.

The defaults are what ``gomoku train`` uses: a small network, about a hundred
simulations per self-play move with playout-cap randomisation, a few dozen games
stepped together, and a replay window of the most recent few hundred games. They were picked
so that a 9×9 run makes visible progress within an hour on a 2-core CPU.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from agents.budget import Budget
from agents.search.settings import SELF_PLAY_PRESET, SearchOptions
from agents.training.teacher_games import TeacherGamesConfig
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_fields, option
from gomoku_env.planes import PLANE_COUNT

FULL_SIZE_HOURS = 0.5
"""A budget shorter than this gets smaller iterations and learns from its first
samples (:func:`budget_defaults`)."""
SHORT_MIN_REPLAY = 64
"""Samples before the first gradient step of a budget under ``FULL_SIZE_HOURS``."""
FULL_SEARCH_BUDGET = Budget(simulations=100)
"""Self-play's search of a move that gives a training sample, unless one is given."""
FAST_SEARCH_BUDGET = Budget(simulations=25)
"""Self-play's search of the other moves, unless one is given."""
SELF_PLAY_LIMITS = ("simulations",)
"""What self-play's :class:`~agents.budget.Budget` may limit: work, never a clock
(``time``), so that the same seed plays the same games on any machine, busy or not."""


@dataclass(frozen=True)
class BudgetDefaults:
    """Settings that depend on the time budget (see :func:`budget_defaults`)."""

    parallel_games: int
    min_replay: int


@dataclass(frozen=True)
class NetworkConfig:
    """The shape of a :class:`PolicyValueNet`; saved with its weights."""

    channels: int = option(
        32, help="width of the residual trunk", minimum=1, maximum=1024, flag="network"
    )
    blocks: int = option(
        4, help="residual blocks in the trunk", minimum=1, maximum=64, flag="network"
    )
    value_hidden: int = option(
        64,
        help="width of the value head's hidden dense layer",
        minimum=1,
        maximum=4096,
        flag="network",
    )
    input_planes: int = option(
        PLANE_COUNT,
        help="observation planes the net reads (the env's ``PLANE_COUNT``)",
        minimum=1,
        maximum=64,
    )

    def __post_init__(self) -> None:
        check_fields(self)

    def to_dict(self) -> dict[str, int]:
        """Plain values for a checkpoint (loadable with ``weights_only=True``)."""
        return asdict(self)


@dataclass(frozen=True)
class LearnerConfig:
    """Optimiser settings, and the learning-rate schedule over the time budget."""

    learning_rate: float = option(
        2e-3,
        help="Adam's step size at the start (then lowered: --first-drop-at)",
        minimum=0,
        flag="learning",
    )
    first_drop_at: float = option(
        0.6,
        help=(
            "share of the time budget after which the learning rate is multiplied by "
            "--first-drop"
        ),
        minimum=0,
        maximum=1,
        flag="learning",
    )
    first_drop: float = option(
        0.3,
        help="factor of the learning rate from --first-drop-at on",
        minimum=0,
        maximum=1,
        flag="learning",
    )
    final_drop_at: float = option(
        0.85,
        help=(
            "share of the time budget after which the learning rate is multiplied by "
            "--final-drop instead (at least --first-drop-at)"
        ),
        minimum=0,
        maximum=1,
        flag="learning",
    )
    final_drop: float = option(
        0.1,
        help="factor of the learning rate from --final-drop-at on",
        minimum=0,
        maximum=1,
        flag="learning",
    )
    weight_decay: float = option(
        1e-4, help="the L2 coefficient", minimum=0, flag="learning"
    )
    value_weight: float = option(
        1.0,
        help="weight of the value loss against the policy loss",
        minimum=0,
        flag="learning",
    )

    def __post_init__(self) -> None:
        check_fields(self)
        if self.final_drop_at < self.first_drop_at:
            raise ValueError(
                f"LearnerConfig.final_drop_at must be >= first_drop_at "
                f"({self.first_drop_at}), got {self.final_drop_at}"
            )

    def learning_rate_at(self, fraction: float) -> float:
        """The learning rate once ``fraction`` of the time budget is spent: full
        rate, then x ``first_drop``, then x ``final_drop``."""
        if fraction < self.first_drop_at:
            return self.learning_rate
        drop = self.first_drop if fraction < self.final_drop_at else self.final_drop
        return self.learning_rate * drop


@dataclass(frozen=True)
class DistillationConfig(TeacherGamesConfig):
    """How a new network learns from the teacher games before self-play."""

    steps: int = option(
        0,
        help="gradient steps on the teacher games' positions",
        minimum=0,
        flag="teacher",
    )


@dataclass(frozen=True)
class SelfPlayConfig:
    """How self-play games are played; each scalar field's docstring is its flag's
    help (the budgets' flags are ``gomoku train``'s --simulations and
    --fast-simulations)."""

    parallel_games: int = option(
        64,
        help="games per iteration, played together so one network call serves them all",
        minimum=1,
        maximum=4096,
        flag="self-play",
        unset="fewer for budgets under half an hour",
    )
    full_search: Budget = option(
        FULL_SEARCH_BUDGET,
        help=(
            "the search of a move whose position becomes a training sample (``gomoku "
            "train``'s --simulations); simulations only, see :data:`SELF_PLAY_LIMITS`"
        ),
    )
    fast_search: Budget = option(
        FAST_SEARCH_BUDGET,
        help=(
            "the search of the other moves, which only move the game on (playout-cap "
            "randomisation: cheap moves keep games going but give no training sample;"
            " --fast-simulations)"
        ),
    )
    full_search_probability: float = option(
        0.25,
        help="share of moves that get the full search and give a sample",
        minimum=0,
        maximum=1,
        flag="self-play",
    )
    gumbel_actions: int = option(
        0,
        help=(
            "0: a sample's search is PUCT with root noise, its target the visits; k > 0:"
            " a Gumbel root (sequential halving over k sampled moves, Danihelka et al. "
            "2022) whose target is the improved policy and whose move is the halving's,"
            " a policy improvement at few simulations (root noise off)"
        ),
        minimum=0,
        maximum=512,
        flag="self-play",
    )
    temperature_moves: int = option(
        6,
        help=(
            "moves sampled in proportion to visits at the start of a game; later "
            "moves take the most visited"
        ),
        minimum=0,
        flag="self-play",
    )
    search: SearchOptions = option(
        help=(
            "the search's knobs, shared with the agents (:data:`SELF_PLAY_PRESET`: "
            "PUCT, root noise, 4 leaves a game per network call, forced-win checks; a"
            " game whose root is proven ends there, labelled with the proven result);"
            " the tree's size follows ``full_search``"
        ),
        default_factory=lambda: SELF_PLAY_PRESET,
    )

    def __post_init__(self) -> None:
        check_fields(self)
        for name in ("full_search", "fast_search"):
            budget = getattr(self, name)
            if not isinstance(budget, Budget):
                raise TypeError(
                    f"SelfPlayConfig.{name} must be a Budget, got {budget!r}"
                )
            budget.refuse(
                f"SelfPlayConfig.{name} (self-play counts work, so that a seed "
                "replays its games)",
                SELF_PLAY_LIMITS,
            )


@dataclass(frozen=True)
class TrainingConfig:
    """A training run: the game, the network, self-play, learning and evaluation.

    Each scalar field's docstring is the help of its ``gomoku train`` flag.
    """

    game: GameConfig = option(
        help="the rules that self-play follows",
        default_factory=lambda: GameConfig(board_size=9),
    )
    network: NetworkConfig = option(
        help="the shape of a fresh network (ignored when starting from weights)",
        default_factory=NetworkConfig,
    )
    self_play: SelfPlayConfig = option(
        help="how games are generated", default_factory=SelfPlayConfig
    )
    distillation: DistillationConfig = option(
        help="teacher games that a new network learns before self-play",
        default_factory=DistillationConfig,
    )
    learner: LearnerConfig = option(
        help="optimiser settings", default_factory=LearnerConfig
    )
    replay_capacity: int = option(
        30_000,
        help="replay window: the most recent samples that learning draws from",
        minimum=1,
        maximum=5_000_000,
        aliases=("--replay",),
        flag="learning",
    )
    batch_size: int = option(
        256,
        help="samples per gradient step",
        minimum=1,
        maximum=65_536,
        flag="learning",
    )
    sample_reuse: float = option(
        8.0,
        help=(
            "times each new sample is drawn for learning, on average (under random "
            "symmetries)"
        ),
        minimum=0,
        flag="learning",
    )
    min_replay: int = option(
        2_000,
        help="samples needed before the first gradient step",
        minimum=1,
        flag="learning",
        unset=f"or {SHORT_MIN_REPLAY} for budgets under half an hour",
    )
    evaluation_every: int = option(
        10,
        help="iterations between evaluation matches (0: never)",
        minimum=0,
        flag="evaluation",
    )
    evaluation_games: int = option(
        12,
        help=(
            "games of each evaluation match, against the best network so far and "
            "against pure MCTS (colours alternate)"
        ),
        minimum=0,
        flag="evaluation",
    )
    evaluation_simulations: int = option(
        100,
        help="AlphaZero's simulations per move in evaluations",
        minimum=0,
        flag="evaluation",
    )
    gating_threshold: float = option(
        0.55,
        help=(
            "score against the best network so far from which the trained network "
            "becomes the best (best.pt)"
        ),
        minimum=0,
        maximum=1,
        flag="evaluation",
    )
    mcts_simulations: int = option(
        1_000,
        help="simulations a move of the pure-MCTS opponent in evaluations",
        minimum=0,
        flag="evaluation",
    )
    snapshot_every: int = option(
        0,
        help=(
            "keep the network every N iterations in OUT/snapshots/ (0: never), for "
            "the learning curve; the distilled network (iteration 0) is kept too"
        ),
        minimum=0,
        flag="run",
    )
    cpu_hours: float = option(
        1.0,
        help=(
            "CPU-time budget of the run (this process's, self-play workers' "
            "included), summed over resumes; the run stops before an iteration that "
            "would not fit, so a busy machine slows a run without changing it"
        ),
        minimum=0,
        flag="run",
    )
    seed: int = option(
        0, help="seeds self-play, sampling and the first weights", minimum=0, flag="run"
    )

    def __post_init__(self) -> None:
        check_fields(self)

    def summary(self) -> dict[str, str]:
        """Flat ``name: value`` strings, for the metadata saved with the weights."""
        return {item.name: repr(getattr(self, item.name)) for item in fields(self)}


def budget_defaults(cpu_hours: float) -> BudgetDefaults:
    """Iteration size and learning start that fit a budget of ``cpu_hours``.

    From half an hour up: the fields' defaults (``parallel_games`` games an iteration,
    ``min_replay`` samples before the first gradient step). A shorter budget plays
    fewer games an iteration, in proportion (at least 8), so that several iterations
    fit in it, and learns from its first ``SHORT_MIN_REPLAY`` samples: a two-minute run
    plays 8 games an iteration and learns after the first, instead of ending before
    learning would start.
    """
    full = BudgetDefaults(SelfPlayConfig().parallel_games, TrainingConfig().min_replay)
    if cpu_hours >= FULL_SIZE_HOURS:
        return full
    share = max(cpu_hours, 0.0) / FULL_SIZE_HOURS
    return BudgetDefaults(
        parallel_games=max(8, round(full.parallel_games * share)),
        min_replay=SHORT_MIN_REPLAY,
    )
