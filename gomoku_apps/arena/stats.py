"""Match statistics: score with a confidence interval and the Elo difference it implies.

A game scores 1 for a win, ½ for a draw and 0 for a loss. The score interval is the
normal approximation on the per-game scores (a trinomial: the draws shrink the
variance), as chess-engine testers report it; the Elo difference is the logistic model's
``-400·log10(1/score - 1)``, and its interval maps the score interval's ends through the
same curve. A score of 0 or 1 gives an infinite Elo difference, reported as such.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


def _check_counts(wins: int, draws: int, losses: int) -> int:
    counts = (wins, draws, losses)
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise ValueError(f"wins, draws and losses must be ints >= 0, got {counts}")
    return wins + draws + losses


def z_value(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (1.96 for 0.95)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def elo_from_score(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (±inf at 1 and 0)."""
    if not 0 <= score <= 1:
        raise ValueError(f"a score must be between 0 and 1, got {score!r}")
    if score in (0, 1):
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger than the opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


def score_moments(wins: float, draws: float, losses: float) -> tuple[float, float]:
    """Mean and variance of one game's score in a sample with these counts."""
    games = wins + draws + losses
    if games <= 0:
        raise ValueError(f"no games in the counts {(wins, draws, losses)}")
    mean = (wins + draws / 2) / games
    variance = (
        wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2
    ) / games
    return mean, variance


@dataclass(frozen=True)
class ScoreSummary:
    """W/D/L of one side with its score and Elo difference, each with an interval."""

    wins: int
    draws: int
    losses: int
    score: float
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float
    confidence: float

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses


def summarize(
    wins: int, draws: int, losses: int, confidence: float = 0.95
) -> ScoreSummary:
    """Score and Elo difference of the side with these results, with intervals.

    Raises:
        ValueError: negative or non-integer counts, no games, or a bad confidence.
    """
    games = _check_counts(wins, draws, losses)
    if games == 0:
        raise ValueError("cannot summarize a match with no games")
    score, variance = score_moments(wins, draws, losses)
    margin = z_value(confidence) * math.sqrt(variance / games)
    low, high = max(0.0, score - margin), min(1.0, score + margin)
    return ScoreSummary(
        wins,
        draws,
        losses,
        score,
        low,
        high,
        elo_from_score(score),
        elo_from_score(low),
        elo_from_score(high),
        confidence,
    )


def format_elo(elo: float) -> str:
    """An Elo difference as signed text, with ±inf spelled out."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo:+.0f}" if round(elo) != 0 else "0"
