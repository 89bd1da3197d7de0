"""The knobs of a search: :class:`SearchConfig` for people, :class:`SearchSettings` for
the compiled kernels.

A :class:`SearchConfig` is validated once, when it is made. A tree turns it and the
game's rules into one :class:`SearchSettings` (the rule parsed to its code there, once)
and hands that whole to every kernel, which reads its fields by name. Each knob keeps
its name on the way down (``exploration`` is ``exploration`` in the config, the
settings and the selection kernel).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from gomoku_env.config import GameConfig
from gomoku_env.errors import check_number

FORMULAS = ("uct", "puct")


@dataclass(frozen=True)
class SearchConfig:
    """How a search selects, expands and remembers.

    Attributes:
        formula: ``"uct"`` (uniform priors: unvisited moves first, then
            Q + c·sqrt(ln N / n)) or ``"puct"`` (Q + c·P·sqrt(N) / (1 + n), for an
            evaluator's priors). An explicit choice rather than one implied by the
            evaluator: it decides how the tree spends its visits and whether root
            noise applies, both fixed when the tree is built, and either formula
            works with either kind of evaluator (PUCT over rollouts' uniform priors,
            UCT over a network's values). :class:`agents.mcts.MCTSAgent` takes the
            evaluator's own ``formula``: UCT for rollouts, PUCT for priors.
        exploration: the constant c of the formula.
        fpu: PUCT value of a move never visited (first-play urgency), in [-1, 1].
        virtual_loss: loss charged to each node on the path of a pending leaf, so the
            leaves gathered in one round differ.
        dirichlet_alpha: concentration of the Dirichlet noise mixed into root priors.
        dirichlet_fraction: weight of that noise (0 disables it; needs ``"puct"``).
        candidate_distance: 0 for every legal point; d > 0 expands and plays out only
            points within d (Chebyshev) of a stone (the whole board when it is empty).
        tactical: a win in one is always taken and an opponent's win in one always
            blocked (the only moves expanded in those positions).
        vcf_nodes: 0 for none; n > 0 checks every node expanded for a forced win by
            fours of the side to move (n solver nodes; the root gets
            :data:`agents.search.tactics.ROOT_VCF_NODES` and its moves are cut to
            those that stop the opponent's), which proves the node as a win in one
            is.
        max_nodes: node capacity of the tree (memory bound; a full tree stops growing).
        max_edges: edge capacity (an expanded node holds one edge per candidate move).
    """

    formula: str = "uct"
    exploration: float = 1.4
    fpu: float = 0.0
    virtual_loss: float = 1.0
    dirichlet_alpha: float = 0.3
    dirichlet_fraction: float = 0.0
    candidate_distance: int = 0
    tactical: bool = True
    vcf_nodes: int = 0
    max_nodes: int = 1_000_000
    max_edges: int = 16_000_000

    def __post_init__(self) -> None:
        if self.formula not in FORMULAS:
            raise ValueError(f"formula must be one of {FORMULAS}, got {self.formula!r}")
        check_number("exploration", self.exploration, minimum=0.0)
        check_number("fpu", self.fpu, minimum=-1.0, maximum=1.0)
        check_number("virtual_loss", self.virtual_loss, minimum=0.0)
        check_number("dirichlet_alpha", self.dirichlet_alpha, minimum=1e-6)
        check_number(
            "dirichlet_fraction", self.dirichlet_fraction, minimum=0.0, maximum=1.0
        )
        if self.dirichlet_fraction > 0 and self.formula != "puct":
            raise ValueError(
                f"dirichlet_fraction={self.dirichlet_fraction} needs formula='puct' "
                f"(UCT ignores priors), got formula={self.formula!r}"
            )
        check_number(
            "candidate_distance", self.candidate_distance, minimum=0, integer=True
        )
        if not isinstance(self.tactical, bool):
            raise TypeError(f"tactical must be a bool, got {self.tactical!r}")
        check_number("vcf_nodes", self.vcf_nodes, minimum=0, integer=True)
        check_number("max_nodes", self.max_nodes, minimum=2, integer=True)
        check_number("max_edges", self.max_edges, minimum=1, integer=True)


class SearchSettings(NamedTuple):
    """What the kernels need to know about the game and the search.

    Every field is a plain ``int``, ``float`` or ``bool``, so numba compiles each kernel
    once for all trees.
    """

    board_size: int
    win_length: int
    rule_code: int  # gomoku_env.kernels' code of the rule (FREESTYLE, ..., RENJU)
    candidate_distance: int  # 0: every legal point; d > 0: points near a stone
    tactical: bool  # expand only the win in one, or the blocks of the opponent's
    vcf_nodes: int  # solver nodes of each node's VCF check (0: no checks)
    puct: bool  # PUCT with priors; False: UCT (unvisited edges first)
    exploration: float
    fpu: float  # PUCT value of an unvisited edge
    virtual_loss: float
    tactical_rollouts: bool = False  # the RolloutEvaluator's kind, set for each run


def search_settings(game: GameConfig, config: SearchConfig) -> SearchSettings:
    """The settings of a search of ``game`` with ``config`` (the rollout kind is the
    evaluator's: a rollout run replaces ``tactical_rollouts``)."""
    return SearchSettings(
        board_size=int(game.board_size),
        win_length=int(game.win_length),
        rule_code=int(game.rule.code),
        candidate_distance=int(config.candidate_distance),
        tactical=bool(config.tactical),
        vcf_nodes=int(config.vcf_nodes),
        puct=config.formula == "puct",
        exploration=float(config.exploration),
        fpu=float(config.fpu),
        virtual_loss=float(config.virtual_loss),
    )
