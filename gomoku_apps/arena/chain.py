"""A rating scale fitted from a chain of anchors: each plays only its neighbours.

A reference scale orders its anchors from ``random`` (rated 0) up, and every two
neighbours play many games against each other (CCRL and CEGT rate engines against
fixed anchors the same way). Each pair's score gives the Elo gap between the two;
the gaps add up along the chain. The gap's 95% margin comes from the pair's games
alone, with draws counted as the trinomial games they are (the delta method on the
score), so a pair of 400 games at 200 Elo apart is known to about ±40. The margin of
an anchor against ``random`` adds the variances of the gaps below it: it grows along
the chain, and the file states it per anchor.

>>> gaps = [PairResult("random", "b", 90, 0, 10), PairResult("b", "c", 50, 0, 50)]
>>> [round(anchor.rating) for anchor in fit_chain(gaps)]
[0, 382, 382]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from agents.budget import Budget
from agents.scales.reference import CODE_AGENTS
from agents.scales.stats import z_value
from agents.specs.parse import make_agent, parse_spec
from gomoku_env.config import GameConfig

ELO_PER_LOG10 = 400.0


@dataclass(frozen=True)
class PairResult:
    """The games of two neighbouring anchors: ``upper``'s wins, draws and losses
    against ``lower``."""

    lower: str
    upper: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        """Games the two played."""
        return self.wins + self.draws + self.losses

    def gap(self, confidence: float = 0.95) -> tuple[float, float]:
        """The Elo gap of ``upper`` over ``lower`` and its margin at ``confidence``.

        Raises:
            ValueError: no games, or a sweep (every game won, or lost: the gap has no
                finite value; play more games or a closer neighbour).
        """
        if self.games == 0:
            raise ValueError(f"{self.upper} and {self.lower} played no games")
        score = (self.wins + self.draws / 2) / self.games
        if score in (0.0, 1.0):
            raise ValueError(
                f"{self.upper} scored {score:.0%} against {self.lower} in {self.games} "
                "games: a sweep has no finite gap; put an anchor between them"
            )
        per_game = (
            self.wins * (1 - score) ** 2
            + self.draws * (0.5 - score) ** 2
            + self.losses * score**2
        ) / self.games
        score_error = math.sqrt(per_game / self.games)
        slope = ELO_PER_LOG10 / (math.log(10) * score * (1 - score))
        gap = -ELO_PER_LOG10 * math.log10(1 / score - 1)
        return gap, z_value(confidence) * slope * score_error


@dataclass(frozen=True)
class ChainAnchor:
    """An anchor of a fitted chain: its rating, its margin against the first anchor
    (``random``), and the gap to its lower neighbour with that gap's margin."""

    spec: str
    rating: float
    margin: float
    gap: float
    gap_margin: float
    games: int
    """Games against the lower neighbour (0 for the first anchor)."""


def fit_chain(
    pairs: Sequence[PairResult], confidence: float = 0.95
) -> list[ChainAnchor]:
    """The anchors of the chain ``pairs`` (in order: each pair's ``upper`` is the next
    pair's ``lower``), the first rated 0.

    Raises:
        ValueError: no pairs, a broken chain, or a pair without a finite gap.
    """
    if not pairs:
        raise ValueError("a chain needs at least one pair of anchors")
    anchors = [ChainAnchor(pairs[0].lower, 0.0, 0.0, 0.0, 0.0, 0)]
    variance = 0.0
    z = z_value(confidence)
    for pair in pairs:
        if pair.lower != anchors[-1].spec:
            raise ValueError(
                f"the chain breaks at {pair.lower!r}: the anchor below it is "
                f"{anchors[-1].spec!r}"
            )
        gap, gap_margin = pair.gap(confidence)
        variance += (gap_margin / z) ** 2
        anchors.append(
            ChainAnchor(
                pair.upper,
                anchors[-1].rating + gap,
                z * math.sqrt(variance),
                gap,
                gap_margin,
                pair.games,
            )
        )
    return anchors


def check_work_budget(spec: str, config: GameConfig) -> None:
    """ValueError unless ``spec`` plays the same moves for the same seed on any
    machine, as an anchor must: no clock budget, no code or program of its own."""
    name, _ = parse_spec(spec)
    if name in CODE_AGENTS:
        raise ValueError(f"anchor {spec!r} is code or a program: not reproducible here")
    budget = getattr(make_agent(spec, config), "budget", None)
    if isinstance(budget, Budget) and budget.time is not None:
        raise ValueError(
            f"anchor {spec!r} searches on a clock (time={budget.time:g}); give it a "
            "work budget (simulations=N, nodes=N) and time=none"
        )
