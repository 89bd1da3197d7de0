"""Every knob of an AlphaZero training run, with CPU-friendly defaults, in one place.

The network's shape, the optimiser, the teacher games, self-play and the run itself:
each knob is a field declared once here (type, default, range, meaning), from which
``gomoku train`` makes its flags; self-play's search knobs are the agents' own
:class:`agents.search.SearchOptions` (the preset :data:`agents.search.SELF_PLAY_PRESET`).
This module needs no torch.

The defaults are what ``gomoku train`` uses: a small network, about a hundred
simulations per self-play move with playout-cap randomisation, 64 games stepped
together, and a replay window of the most recent few hundred games. They were picked
so that a 9×9 run makes visible progress within an hour on a 2-core CPU.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from agents.options import bounded, check_fields
from agents.search.settings import SELF_PLAY_PRESET, SearchOptions
from gomoku_env.config import GameConfig
from gomoku_env.planes import PLANE_COUNT


@dataclass(frozen=True)
class NetworkConfig:
    """The shape of a :class:`PolicyValueNet`; saved with its weights."""

    channels: int = bounded(32, minimum=1)
    """width of the residual trunk"""
    blocks: int = bounded(4, minimum=1)
    """residual blocks in the trunk"""
    value_hidden: int = bounded(64, minimum=1)
    """width of the value head's hidden dense layer"""
    input_planes: int = bounded(PLANE_COUNT, minimum=1)
    """observation planes the net reads (the env's ``PLANE_COUNT``)"""

    def __post_init__(self) -> None:
        check_fields(self)

    def to_dict(self) -> dict[str, int]:
        """Plain values for a checkpoint (loadable with ``weights_only=True``)."""
        return asdict(self)


@dataclass(frozen=True)
class LearnerConfig:
    """Optimiser settings."""

    learning_rate: float = bounded(2e-3, minimum=0)
    """Adam's step size (lowered x0.3 after 60% of the budget, x0.1 after 85%)"""
    weight_decay: float = bounded(1e-4, minimum=0)
    """the L2 coefficient"""
    value_weight: float = bounded(1.0, minimum=0)
    """weight of the value loss against the policy loss"""

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class DistillationConfig:
    """How a new network learns from the heuristic before self-play (teacher games)."""

    games: int = bounded(0, minimum=0)
    """heuristic games played for the network to learn from first (0: none)"""
    steps: int = bounded(0, minimum=0)
    """gradient steps on the teacher games' positions"""
    random_move_probability: float = bounded(0.1, minimum=0, maximum=1)
    """chance that a move after the opening is a random legal point next to the
    stones instead of the heuristic's, so the samples cover positions the heuristic
    would never reach by itself"""
    opening_moves: int = bounded(4, minimum=0)
    """moves at the start of each game chosen at random among the points near the
    stones (near the centre on an empty board)"""
    depth: int = bounded(0, minimum=0, maximum=8)
    """0: the heuristic's move is each position's policy target; d > 0: an alpha-beta
    search of depth d (with its forced-win checks, so it finds and stops VCFs)
    labels every position instead: a stronger teacher, about 10 ms a position at
    depth 3 on 15x15, spread over the CPU's cores"""

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class SelfPlayConfig:
    """How self-play games are played; each field's docstring is its flag's help."""

    parallel_games: int = bounded(64, minimum=1)
    """games per iteration, played together so one network call serves them all"""
    simulations: int = bounded(100, minimum=1)
    """search simulations of a move whose position becomes a training sample"""
    fast_simulations: int = bounded(25, minimum=1)
    """simulations of the other moves, which only move the game on (playout-cap
    randomisation: cheap moves keep games going but give no training sample)"""
    full_search_probability: float = bounded(0.25, minimum=0, maximum=1)
    """share of moves that get the full search and give a sample"""
    temperature_moves: int = bounded(6, minimum=0)
    """moves sampled in proportion to visits at the start of a game; later moves take
    the most visited"""
    search: SearchOptions = field(default_factory=lambda: SELF_PLAY_PRESET)
    """the search's knobs, shared with the agents (:data:`SELF_PLAY_PRESET`: PUCT,
    root noise, 4 leaves a game per network call, forced-win checks; a game whose root
    is proven ends there, labelled with the proven result); the tree's size follows
    ``simulations``"""

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class TrainingConfig:
    """A training run: the game, the network, self-play, learning and evaluation.

    Each scalar field's docstring is the help of its ``gomoku train`` flag.
    """

    game: GameConfig = field(default_factory=lambda: GameConfig(board_size=9))
    """the rules that self-play follows"""
    network: NetworkConfig = field(default_factory=NetworkConfig)
    """the shape of a fresh network (ignored when starting from weights)"""
    self_play: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    """how games are generated"""
    distillation: DistillationConfig = field(default_factory=DistillationConfig)
    """teacher games that a new network learns before self-play"""
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    """optimiser settings"""
    replay_capacity: int = bounded(30_000, minimum=1, aliases=("--replay",))
    """replay window: the most recent samples that learning draws from"""
    batch_size: int = bounded(256, minimum=1)
    """samples per gradient step"""
    sample_reuse: float = bounded(8.0, minimum=0)
    """times each new sample is drawn for learning, on average (under random
    symmetries)"""
    min_replay: int = bounded(2_000, minimum=1)
    """samples needed before the first gradient step"""
    evaluation_every: int = bounded(10, minimum=0)
    """iterations between evaluation matches (0: never)"""
    evaluation_games: int = bounded(12, minimum=0)
    """games of each evaluation match, against the best network so far and against
    pure MCTS (colours alternate)"""
    evaluation_simulations: int = bounded(100, minimum=0)
    """AlphaZero's simulations per move in evaluations"""
    mcts_simulations: int = bounded(1_000, minimum=0)
    """simulations a move of the pure-MCTS opponent in evaluations"""
    snapshot_every: int = bounded(0, minimum=0)
    """keep the network every N iterations in OUT/snapshots/ (0: never), for the
    learning curve; the distilled network (iteration 0) is kept too"""
    hours: float = bounded(1.0, minimum=0)
    """wall-clock budget, summed over resumes; the run ends within one iteration of
    it"""
    seed: int = bounded(0, minimum=0)
    """seeds self-play, sampling and the first weights"""

    def __post_init__(self) -> None:
        check_fields(self)

    def summary(self) -> dict[str, str]:
        """Flat ``name: value`` strings, for the metadata saved with the weights."""
        return {item.name: repr(getattr(self, item.name)) for item in fields(self)}


# A budget shorter than this gets smaller iterations and learns from its first samples.
FULL_SIZE_HOURS = 0.5
FULL_PARALLEL_GAMES = 64
FULL_MIN_REPLAY = 2_000


@dataclass(frozen=True)
class BudgetDefaults:
    """Settings that depend on the time budget (see :func:`budget_defaults`)."""

    parallel_games: int
    min_replay: int


def budget_defaults(hours: float) -> BudgetDefaults:
    """Iteration size and learning start that fit a budget of ``hours``.

    From half an hour up: 64 games an iteration and 2,000 samples before the first
    gradient step. A shorter budget plays fewer games an iteration, in proportion (at
    least 8), so that several iterations fit in it, and learns from its first 64
    samples: a two-minute run plays 8 games an iteration and learns after the first,
    instead of ending before learning would start.
    """
    if hours >= FULL_SIZE_HOURS:
        return BudgetDefaults(FULL_PARALLEL_GAMES, FULL_MIN_REPLAY)
    share = max(hours, 0.0) / FULL_SIZE_HOURS
    return BudgetDefaults(
        parallel_games=max(8, round(FULL_PARALLEL_GAMES * share)), min_replay=64
    )
