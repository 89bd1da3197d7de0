"""Match statistics: score with a confidence interval and the Elo difference it implies.

A game scores 1 for a win, ½ for a draw and 0 for a loss. The score interval is the
Wilson score interval with the draws counted as half a win: the set of true scores
``p`` for which the observed score is within ``z`` standard errors, the standard error
taken at ``p`` itself (``sqrt(p(1 - p)/n)``) rather than at the observed score.

Why Wilson: the normal ("Wald") interval, which takes the standard error at the
observed score, has zero width at 0% and 100% — a 6-0 match would claim the score is
exactly 1 — and is too narrow near them. Wilson's interval keeps a width there (6-0
gives 0.610 … 1) and has close to its nominal coverage for small matches. A Bayesian
interval would also stay honest but its ends at a clean sweep depend on the prior.
With draws the per-game variance is smaller than ``p(1 - p)`` (by a quarter of the
draw rate), so counting a draw as half a win makes the interval a little wider than
it needs to be, never narrower.

The Elo difference is the logistic model's ``-400·log10(1/score - 1)``, and its
interval maps the score interval's ends through the same curve. A clean sweep has no
finite maximum-likelihood Elo difference and no upper bound: the report then says
``> +77 (95% CI +77 … unbounded: all 6 games won)`` instead of printing infinities
(:func:`format_elo_interval`); only finite numbers are ever printed.
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


ELO_PER_NATURAL_UNIT = 400 / math.log(10)
"""Elo points per unit of the logistic model's natural strength scale."""


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


def wilson_interval(
    score: float, games: float, confidence: float = 0.95
) -> tuple[float, float]:
    """The Wilson score interval for a mean score ``score`` over ``games`` games.

    >>> [round(end, 3) for end in wilson_interval(1.0, 6)]
    [0.61, 1.0]

    Raises:
        ValueError: a score outside [0, 1], no games, or a bad confidence.
    """
    if not 0 <= score <= 1:
        raise ValueError(f"a score must be between 0 and 1, got {score!r}")
    if games <= 0:
        raise ValueError(f"the interval needs at least one game, got {games!r}")
    spread = z_value(confidence) ** 2 / games
    return _wilson_low(score, spread), 1 - _wilson_low(1 - score, spread)


def _wilson_low(score: float, spread: float) -> float:
    """The interval's lower end, as the product of the two ends over the upper end.

    The ends are the roots of ``(1 + s)p² - (2·score + s)p + score² = 0``; dividing
    their product by the upper root avoids the cancellation of ``centre - margin``
    near 0, so the end is 0 exactly when the score is.
    """
    margin = math.sqrt(spread * score * (1 - score) + spread**2 / 4)
    upper = (score + spread / 2 + margin) / (1 + spread)
    return score**2 / ((1 + spread) * upper)


def _finite_elo(score: float) -> float | None:
    return None if score in (0, 1) else elo_from_score(score)


@dataclass(frozen=True)
class ScoreSummary:
    """W/D/L of one side with its score and Elo difference, each with an interval.

    The Elo values are finite or None: ``elo`` is None at a 0% or 100% score (no
    finite estimate), ``elo_low`` None when nothing was won and ``elo_high`` None
    when nothing was lost (no bound on that side).
    """

    wins: int
    draws: int
    losses: int
    score: float
    score_low: float
    score_high: float
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    confidence: float

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses


def summarize(
    wins: int,
    draws: int,
    losses: int,
    confidence: float = 0.95,
    worth: float | None = None,
) -> ScoreSummary:
    """Score and Elo difference of the side with these results, with intervals.

    ``worth``: the games as independent games, when fewer than were played (games
    replayed move for move: :func:`gomoku_apps.arena.results.effective_games`); the
    intervals are as wide as that many games allow.

    Raises:
        ValueError: negative or non-integer counts, no games, a ``worth`` that is not
            in (0, games], or a bad confidence.
    """
    games = _check_counts(wins, draws, losses)
    if games == 0:
        raise ValueError("cannot summarize a match with no games")
    if worth is not None and not 0 < worth <= games:
        raise ValueError(f"worth must be in (0, {games}], got {worth!r}")
    score = (wins + draws / 2) / games
    low, high = wilson_interval(score, worth or games, confidence)
    return ScoreSummary(
        wins,
        draws,
        losses,
        score,
        low,
        high,
        _finite_elo(score),
        _finite_elo(low),
        _finite_elo(high),
        confidence,
    )


def format_elo(elo: float) -> str:
    """An Elo difference as signed text, rounded to a point.

    >>> format_elo(12.4), format_elo(-0.2), format_elo(-190.8)
    ('+12', '0', '-191')
    """
    if math.isinf(elo):
        raise ValueError("an infinite Elo difference has no text; report a bound")
    return f"{elo:+.0f}" if round(elo) != 0 else "0"


def format_elo_interval(summary: ScoreSummary) -> str:
    """The Elo difference with its interval, finite even at a 0% or 100% score.

    >>> format_elo_interval(summarize(6, 2, 2))
    '+147 (95% CI -73 … +367)'
    >>> format_elo_interval(summarize(6, 0, 0))
    '> +77 (95% CI +77 … unbounded: all 6 games won)'

    """
    percent = f"{round(100 * summary.confidence)}%"
    low, high = _bound_text(summary.elo_low), _bound_text(summary.elo_high)
    games = summary.games
    if summary.losses == summary.draws == 0:
        return f"> {low} ({percent} CI {low} … unbounded: all {games} games won)"
    if summary.wins == summary.draws == 0:
        return f"< {high} ({percent} CI unbounded … {high}: all {games} games lost)"
    return f"{_bound_text(summary.elo)} ({percent} CI {low} … {high})"


def _bound_text(elo: float | None) -> str:
    return "none" if elo is None else format_elo(elo)
