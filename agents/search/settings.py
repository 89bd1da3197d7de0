"""The knobs of a search: :class:`SearchOptions` for people, :class:`SearchSettings`
for the compiled kernels.

Every knob is declared once, as a field of :class:`SearchOptions` (its type, default,
range and meaning); the agents' own defaults are named presets of it
(:data:`MCTS_PRESET`, :data:`ALPHAZERO_PRESET`, :data:`SELF_PLAY_PRESET`), and the
``mcts`` and ``alphazero`` spec options and ``gomoku agents`` come from its fields. The
options are validated once, when made. A tree turns them and the game's rules into one
:class:`SearchSettings` (the rule parsed to its code, the formula and the rollout kind
to flags) that every kernel reads by name. A knob keeps its name from the spec to the
kernel (``distance`` is ``distance`` in a spec, the options, the settings and the
kernels); ``edges_per_node`` is multiplied into the edge capacity by the tree, and
``formula`` and ``rollout`` reach the kernels as ``puct`` and ``rollout_code``.

>>> ALPHAZERO_PRESET.exploration, MCTS_PRESET.exploration
(1.5, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from gomoku_env.config import MAX_BOARD_SIZE
from gomoku_env.fields import check_fields, option, quoted

FORMULAS = ("uct", "puct")
ROLLOUTS = ("random", "tactical")
"""Rollout kinds; a kind's index is its ``rollout_code`` in the kernels."""
TACTICAL_ROLLOUT = ROLLOUTS.index("tactical")


MAX_TREE_NODES = 2**26
"""The largest tree a search may ask for (about 3 GB of node arrays)."""
MAX_TREE_EDGES = 2**31 - 1
"""The tree's edges are indexed by int32: ``max_nodes`` times the edges per node
must stay within this."""


@dataclass(frozen=True)
class SearchOptions:
    """How a tree search selects, expands, values and remembers (validated once)."""

    formula: str | None = option(
        None,
        help=(
            "uct (unvisited moves first, then Q + c·sqrt(ln N / n)) or puct (Q + "
            "c·P·sqrt(N) / (1 + n), for an evaluator's priors); none: UCT over "
            "rollouts, PUCT over an evaluator's priors"
        ),
    )
    exploration: float = option(
        1.0, help="the exploration constant c of the formula", minimum=0, aliases=("c",)
    )
    leaves_per_round: int = option(
        1,
        help=(
            "leaves gathered per round (kept apart by virtual loss); with an "
            "evaluator, leaves per evaluate call"
        ),
        minimum=1,
        aliases=("batch",),
    )
    distance: int = option(
        2,
        help=(
            "candidate points within this (Chebyshev) distance of a stone, in the "
            "tree and the rollouts (0: every legal point; the whole board when it is "
            "empty)"
        ),
        minimum=0,
    )
    tactical: bool = option(
        True,
        help=(
            "always take a win in one and block the opponent's (the only moves "
            "expanded in those positions)"
        ),
    )
    vcf_nodes: int = option(
        0,
        help=(
            "0 for none; n > 0 proves forced wins by fours in every node expanded "
            "with n solver nodes, and at the root plays its own and stops the "
            "opponent's"
        ),
        minimum=0,
    )
    rollout: str = option(
        "tactical",
        help=(
            "how leaves are played out without an evaluator: tactical (takes and "
            "blocks wins in one, else random) or random"
        ),
    )
    fpu: float = option(
        0.0,
        help="PUCT value of a move never visited (first-play urgency)",
        minimum=-1,
        maximum=1,
    )
    virtual_loss: float = option(
        1.0,
        help="loss charged to the path of a pending leaf, so a round's leaves differ",
        minimum=0,
    )
    dirichlet_alpha: float = option(
        0.3,
        help=(
            "concentration of the Dirichlet noise mixed into the root priors (about "
            "10 / legal moves)"
        ),
        above=0,
    )
    dirichlet_fraction: float = option(
        0.0,
        help="weight of that root noise (0: none; needs PUCT)",
        minimum=0,
        maximum=1,
    )
    max_nodes: int = option(
        1_000_000,
        help=(
            "tree capacity in nodes (memory bound; a full tree stops growing and "
            "keeps refining its visits)"
        ),
        minimum=2,
        maximum=MAX_TREE_NODES,
    )
    edges_per_node: int | None = option(
        16,
        help=(
            "edge capacity per node (an expanded node has one edge per candidate "
            "point); none: one per board cell"
        ),
        minimum=1,
        maximum=MAX_BOARD_SIZE**2,
    )

    def __post_init__(self) -> None:
        check_fields(self)
        if self.formula is not None and self.formula not in FORMULAS:
            raise ValueError(
                f"formula must be one of {FORMULAS} or None, "
                f"got {quoted(str(self.formula))}"
            )
        if self.rollout not in ROLLOUTS:
            raise ValueError(
                f"rollout must be one of {ROLLOUTS}, got {quoted(str(self.rollout))}"
            )
        if not isinstance(self.tactical, bool):
            raise TypeError(f"tactical must be a bool, got {self.tactical!r}")
        if self.dirichlet_fraction > 0 and self.formula == "uct":
            raise ValueError(
                f"dirichlet_fraction={self.dirichlet_fraction} needs formula='puct' "
                "(UCT ignores priors), got formula='uct'"
            )

    def for_evaluator(self, evaluated: bool) -> SearchOptions:
        """These options with the formula settled: as given, else PUCT when leaves
        are ``evaluated`` (an evaluator's priors) and UCT over rollouts."""
        if self.formula is not None:
            return self
        return replace(self, formula="puct" if evaluated else "uct")


MCTS_PRESET = SearchOptions()
""":class:`agents.search.mcts.MCTSAgent`'s defaults: the base options."""
ALPHAZERO_PRESET = replace(
    MCTS_PRESET,
    exploration=1.5,
    leaves_per_round=8,
    distance=0,
    vcf_nodes=200,
    max_nodes=50_000,
    edges_per_node=None,
)
""":class:`agents.alphazero.agent.AlphaZeroAgent`'s defaults: PUCT over the network's
priors on every point, a batch of 8 leaves a call, 200 solver nodes per check (the
alpha-beta agent's horizon check has as many), a tree of 50,000 nodes."""
SELF_PLAY_PRESET = replace(
    ALPHAZERO_PRESET,
    formula="puct",
    leaves_per_round=4,
    dirichlet_alpha=0.2,
    dirichlet_fraction=0.25,
)
"""Self-play's defaults: AlphaZero's, with root noise and 4 leaves a game a call (64
games share one call); self-play sizes ``max_nodes`` from its simulations."""


class SearchSettings(NamedTuple):
    """What the kernels need to know about the game and the search.

    Every field is a plain ``int``, ``float`` or ``bool``, so numba compiles each kernel
    once for all trees.
    """

    board_size: int
    win_length: int
    rule_code: int  # gomoku_env.kernels' code of the rule (FREESTYLE, ..., RENJU)
    distance: int  # 0: every legal point; d > 0: points near a stone
    tactical: bool  # expand only the win in one, or the blocks of the opponent's
    vcf_nodes: int  # solver nodes of each node's VCF check (0: no checks)
    puct: bool  # PUCT with priors; False: UCT (unvisited edges first)
    exploration: float
    fpu: float  # PUCT value of an unvisited edge
    virtual_loss: float
    rollout_code: int  # the index of the options' rollout in ROLLOUTS
