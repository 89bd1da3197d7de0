"""TrainingConfig: every knob of an AlphaZero training run, with CPU-friendly defaults.

The defaults are what ``gomoku train`` uses: a small network, about a hundred
simulations per self-play move with playout-cap randomisation, 64 games stepped
together, and a replay window of the most recent few hundred games. They were picked
so that a 9×9 run makes visible progress within an hour on a 2-core CPU.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from agents.alphazero.distillation import DistillationConfig
from agents.alphazero.learner import LearnerConfig
from agents.alphazero.network import NetworkConfig
from gomoku_env.config import GameConfig


def _check_positive(owner: object, names: tuple[str, ...], low: float) -> None:
    for name in names:
        value = getattr(owner, name)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or value < low
        ):
            raise ValueError(
                f"{type(owner).__name__}.{name} must be a number >= {low}, "
                f"got {value!r}"
            )


@dataclass(frozen=True)
class SelfPlayConfig:
    """How self-play games are played.

    Attributes:
        parallel_games: games stepped together, so one network call serves them all.
        simulations: search simulations of a full move (one whose sample is kept).
        fast_simulations: simulations of a fast move (playout-cap randomisation: cheap
            moves keep games going but give no training sample).
        full_search_probability: chance that a move gets the full search.
        leaves_per_round: leaves one game's search gathers per network call (kept apart
            by virtual loss).
        temperature_moves: moves sampled in proportion to visits at the start of a game;
            later moves take the most visited.
        dirichlet_alpha: root noise concentration (about 10 / legal moves).
        dirichlet_fraction: weight of the root noise on full moves.
        exploration: the PUCT constant.
    """

    parallel_games: int = 64
    simulations: int = 100
    fast_simulations: int = 25
    full_search_probability: float = 0.25
    leaves_per_round: int = 4
    temperature_moves: int = 6
    dirichlet_alpha: float = 0.2
    dirichlet_fraction: float = 0.25
    exploration: float = 1.5

    def __post_init__(self) -> None:
        _check_positive(
            self,
            ("parallel_games", "simulations", "fast_simulations", "leaves_per_round"),
            1,
        )
        _check_positive(self, ("temperature_moves", "exploration"), 0)
        _check_positive(self, ("dirichlet_alpha",), 1e-6)
        for name in ("full_search_probability", "dirichlet_fraction"):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise ValueError(
                    f"SelfPlayConfig.{name} must be in [0, 1], got {value!r}"
                )


@dataclass(frozen=True)
class TrainingConfig:
    """A training run: the game, the network, self-play, learning and evaluation.

    Attributes:
        game: the rules that self-play follows.
        network: the shape of a fresh network (ignored when starting from weights).
        self_play: how games are generated.
        distillation: teacher games that a new network learns before self-play.
        learner: optimiser settings.
        replay_capacity: samples in the replay window.
        batch_size: samples per gradient step.
        sample_reuse: gradient-step samples drawn per new sample (each one seen about
            this many times, under random symmetries).
        min_replay: samples needed before the first gradient step.
        evaluation_every: iterations between evaluations (0: never).
        evaluation_games: games per evaluation match (colours alternate).
        evaluation_simulations: AlphaZero's simulations per move in evaluations.
        mcts_simulations: simulations of the pure MCTS baseline in evaluations.
        snapshot_every: iterations between the networks kept in ``snapshots/`` for
            the learning curve (0: none); the distilled network (iteration 0) is
            kept too.
        hours: wall-clock budget of this run, summed over resumes.
        seed: seeds self-play, sampling and initial weights.
    """

    game: GameConfig = field(default_factory=lambda: GameConfig(board_size=9))
    network: NetworkConfig = field(default_factory=NetworkConfig)
    self_play: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    distillation: DistillationConfig = field(default_factory=DistillationConfig)
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    replay_capacity: int = 30_000
    batch_size: int = 256
    sample_reuse: float = 8.0
    min_replay: int = 2_000
    evaluation_every: int = 10
    evaluation_games: int = 12
    evaluation_simulations: int = 100
    mcts_simulations: int = 1_000
    snapshot_every: int = 0
    hours: float = 1.0
    seed: int = 0

    def __post_init__(self) -> None:
        _check_positive(self, ("replay_capacity", "batch_size", "min_replay"), 1)
        _check_positive(
            self,
            ("evaluation_every", "evaluation_games", "evaluation_simulations"),
            0,
        )
        _check_positive(
            self,
            ("mcts_simulations", "sample_reuse", "hours", "seed", "snapshot_every"),
            0,
        )

    def summary(self) -> dict[str, str]:
        """Flat ``name: value`` strings, for the metadata saved with the weights."""
        return {item.name: repr(getattr(self, item.name)) for item in fields(self)}


# A budget shorter than this gets smaller iterations and learns from its first samples.
FULL_SIZE_HOURS = 0.5
FULL_PARALLEL_GAMES = SelfPlayConfig.parallel_games
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
