"""SearchConfig: the knobs of one search, validated once."""

from __future__ import annotations

from dataclasses import dataclass

FORMULAS = ("uct", "puct")


def _check_number(
    name: str, value: object, low: float, high: float | None = None
) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bound}, got {value!r}")


def _check_int(name: str, value: object, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value!r}")


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
            UCT over a network's values). :class:`agents.mcts.MCTSAgent` picks UCT
            for rollouts and PUCT for an evaluator with priors.
        exploration: the constant c of the formula.
        fpu: PUCT value of a move never visited (first-play urgency), in [-1, 1].
        virtual_loss: loss charged to each node on the path of a pending leaf, so the
            leaves gathered in one batch differ.
        dirichlet_alpha: concentration of the Dirichlet noise mixed into root priors.
        dirichlet_fraction: weight of that noise (0 disables it; needs ``"puct"``).
        candidate_distance: 0 for every legal point; d > 0 expands and plays out only
            points within d (Chebyshev) of a stone (the whole board when it is empty).
        tactical: a win in one is always taken and an opponent's win in one always
            blocked (the only moves expanded in those positions).
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
    max_nodes: int = 1_000_000
    max_edges: int = 16_000_000

    def __post_init__(self) -> None:
        if self.formula not in FORMULAS:
            raise ValueError(f"formula must be one of {FORMULAS}, got {self.formula!r}")
        _check_number("exploration", self.exploration, 0.0)
        _check_number("fpu", self.fpu, -1.0, 1.0)
        _check_number("virtual_loss", self.virtual_loss, 0.0)
        _check_number("dirichlet_alpha", self.dirichlet_alpha, 1e-6)
        _check_number("dirichlet_fraction", self.dirichlet_fraction, 0.0, 1.0)
        if self.dirichlet_fraction > 0 and self.formula != "puct":
            raise ValueError(
                f"dirichlet_fraction={self.dirichlet_fraction} needs formula='puct' "
                f"(UCT ignores priors), got formula={self.formula!r}"
            )
        _check_int("candidate_distance", self.candidate_distance, 0)
        if not isinstance(self.tactical, bool):
            raise TypeError(f"tactical must be a bool, got {self.tactical!r}")
        _check_int("max_nodes", self.max_nodes, 2)
        _check_int("max_edges", self.max_edges, 1)
