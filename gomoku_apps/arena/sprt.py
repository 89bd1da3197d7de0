"""Sequential probability ratio test: stop an A-vs-B match once the result is decided.

As in chess-engine testing (fishtest, cutechess-cli), the match tests H0 "A is ``elo0``
stronger than B" against H1 "A is ``elo1`` stronger" with error rates ``alpha`` (accept
H1 when H0 holds) and ``beta`` (accept H0 when H1 holds). After each game the log
likelihood ratio of the W/D/L counts is compared with Wald's bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.

The ratio is the generalized SPRT of the per-game score under the normal approximation
(Van den Bergh's formulation, used by fishtest): with the sample mean score ``m``,
per-game variance ``v`` and the scores ``s0``, ``s1`` that ``elo0`` and ``elo1`` imply,
``LLR = N/2 · log((v + (m - s0)²) / (v + (m - s1)²))``. A category with no games yet
counts as 0.001 games so that an all-draw start does not divide by zero.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from agents.scales.stats import score_from_elo, score_moments

_EMPTY_CATEGORY = 1e-3


class SPRTDecision(str, enum.Enum):
    """Where the test stands: keep playing, or which hypothesis was accepted."""

    CONTINUE = "continue"
    ACCEPT_H0 = "H0"
    ACCEPT_H1 = "H1"


@dataclass(frozen=True)
class SPRT:
    """An SPRT of H0: Elo difference = ``elo0`` against H1: Elo difference = ``elo1``.

    >>> test = SPRT(elo0=0, elo1=100, alpha=0.05, beta=0.05)
    >>> test.decide(wins=40, draws=0, losses=5).value
    'H1'
    """

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, got {value!r}")
        if not self.elo0 < self.elo1:
            raise ValueError(
                f"elo0 must be below elo1, got elo0={self.elo0!r}, elo1={self.elo1!r}"
            )

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's (lower, upper) bounds on the log likelihood ratio."""
        lower = math.log(self.beta / (1 - self.alpha))
        upper = math.log((1 - self.beta) / self.alpha)
        return lower, upper

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The log likelihood ratio of H1 against H0 for these results of A."""
        games = wins + draws + losses
        if games == 0:
            return 0.0
        counts = [max(count, _EMPTY_CATEGORY) for count in (wins, draws, losses)]
        mean, variance = score_moments(*counts)
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        spread0, spread1 = variance + (mean - s0) ** 2, variance + (mean - s1) ** 2
        return games / 2 * math.log(spread0 / spread1)

    def decide(self, wins: int, draws: int, losses: int) -> SPRTDecision:
        """Accept H0 or H1 when the ratio crosses a bound, else continue."""
        ratio = self.llr(wins, draws, losses)
        lower, upper = self.bounds
        if ratio >= upper:
            return SPRTDecision.ACCEPT_H1
        if ratio <= lower:
            return SPRTDecision.ACCEPT_H0
        return SPRTDecision.CONTINUE
