"""One new player's rating against anchors whose ratings are held fixed.

Under the Elo (Bradley-Terry, logistic) model that the ladder fits, a player rated
``r`` scores ``e(r - a) = 1 / (1 + 10^(-(r - a)/400))`` per game on average against an
anchor rated ``a``, a draw counting half a win each way. With the anchors' ratings
fixed, only ``r`` is free, and its maximum-likelihood value solves
``Σ points_j = Σ games_j · e(r - a_j)``: the rating at which the expected points
against the anchors played equal the points scored.

So that winning (or losing) every game still gives a finite rating, the weakest and
the strongest anchor played each count ``prior`` virtual games scored half a win each
way. Only those two: a virtual draw against every anchor would weigh as much as the
real games when they are few, and pull an agent that lost every game up towards the
strong anchors it never scored against. With the two ends, a sweep of losses rates
below the weakest anchor and a sweep of wins above the strongest, as it should.

The interval is the profile-likelihood interval: the ratings whose log likelihood is
within ``z²/2`` of the maximum. Unlike ``r ± z/sqrt(information)`` it may be lopsided,
as it should be next to a sweep, where the data bound the rating well on one side only.

>>> rating = fit_anchored_rating([0.0], points=[2.0], games=[4])
>>> rating.rating
0.0
>>> round(rating.low) == -round(rating.high)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.scales.stats import ELO_PER_NATURAL_UNIT, z_value

_NEWTON_STEPS = 100
_TOLERANCE = 1e-9
_BISECTION_STEPS = 100


@dataclass(frozen=True)
class AnchoredRating:
    """A rating on the anchors' scale, in Elo, with its interval."""

    rating: float
    low: float
    high: float
    confidence: float


def _log_likelihood(
    rating: float, anchors: np.ndarray, points: np.ndarray, games: np.ndarray
) -> float:
    gap = (rating - anchors) / ELO_PER_NATURAL_UNIT
    log_win, log_loss = -np.logaddexp(0.0, -gap), -np.logaddexp(0.0, gap)
    return float(np.sum(points * log_win + (games - points) * log_loss))


def _newton(anchors: np.ndarray, points: np.ndarray, games: np.ndarray) -> float:
    """The maximum-likelihood rating (the log likelihood is concave in it)."""
    rating = float(np.average(anchors, weights=games))
    for _ in range(_NEWTON_STEPS):
        expected = 1 / (1 + np.exp(-(rating - anchors) / ELO_PER_NATURAL_UNIT))
        gradient = float(np.sum(points - games * expected))
        curvature = float(np.sum(games * expected * (1 - expected)))
        step = ELO_PER_NATURAL_UNIT * gradient / curvature
        # Far from the optimum the curvature is tiny; a bounded step stays stable.
        step = max(-400.0, min(400.0, step))
        rating += step
        if abs(step) < _TOLERANCE:
            break
    return rating


def _profile_end(
    rating: float,
    direction: float,
    drop: float,
    likelihood: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> float:
    """The rating on one side where the log likelihood has fallen by ``drop``."""
    peak = _log_likelihood(rating, *likelihood)
    near, far = rating, rating + direction * 100
    while peak - _log_likelihood(far, *likelihood) < drop:
        near, far = far, rating + 2 * (far - rating)
    for _ in range(_BISECTION_STEPS):
        middle = (near + far) / 2
        if peak - _log_likelihood(middle, *likelihood) < drop:
            near = middle
        else:
            far = middle
    return (near + far) / 2


def _check_results(
    anchors: Sequence[float], points: Sequence[float], games: Sequence[int]
) -> None:
    if not len(anchors) == len(points) == len(games) > 0:
        raise ValueError(
            "anchors, points and games must be equally long and not empty, got "
            f"{len(anchors)}, {len(points)} and {len(games)}"
        )
    for anchor, scored, played in zip(anchors, points, games, strict=True):
        if not math.isfinite(anchor):
            raise ValueError(f"an anchor's rating must be finite, got {anchor!r}")
        if not 0 <= scored <= played:
            raise ValueError(
                f"points must be between 0 and the games played, got {scored!r} "
                f"in {played!r} games"
            )
    if sum(games) <= 0:
        raise ValueError("no games against the anchors")


def _likelihood(
    anchors: Sequence[float],
    points: Sequence[float],
    games: Sequence[int],
    prior: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The played anchors' ratings, points and games, the ``prior``'s virtual draws
    against the weakest and the strongest of them added (checked as
    :func:`fit_anchored_rating` says)."""
    _check_results(anchors, points, games)
    if not prior >= 0:
        raise ValueError(f"prior must be >= 0, got {prior!r}")
    played = np.asarray(games, dtype=float) > 0
    ratings = np.asarray(anchors, dtype=float)
    ends = np.zeros(len(ratings), dtype=bool)
    ends[np.flatnonzero(played)[np.argmin(ratings[played])]] = True
    ends[np.flatnonzero(played)[np.argmax(ratings[played])]] = True
    virtual = prior * ends
    likelihood = (
        ratings[played],
        (np.asarray(points, dtype=float) + virtual / 2)[played],
        (np.asarray(games, dtype=float) + virtual)[played],
    )
    scored, total = likelihood[1].sum(), likelihood[2].sum()
    if scored in (0, total):
        raise ValueError("with prior 0, a sweep has no finite rating; use prior > 0")
    return likelihood


def anchored_rating(
    anchors: Sequence[float],
    points: Sequence[float],
    games: Sequence[int],
    prior: float = 1.0,
) -> float:
    """The rating of :func:`fit_anchored_rating` without its interval: for a running
    estimate refitted after every game (the curriculum's), where the interval's
    search would cost ten times the fit."""
    return _newton(*_likelihood(anchors, points, games, prior))


def fit_anchored_rating(
    anchors: Sequence[float],
    points: Sequence[float],
    games: Sequence[int],
    prior: float = 1.0,
    confidence: float = 0.95,
) -> AnchoredRating:
    """The rating that best explains ``points`` in ``games`` against each anchor.

    Args:
        anchors: the anchors' fixed ratings (Elo).
        points: points scored against each (a win 1, a draw ½).
        games: games played against each; an anchor with no games adds nothing.
        prior: virtual games against the weakest and the strongest anchor played,
            scored half each way (0 for none, which leaves a sweep's rating
            infinite).
        confidence: of the profile-likelihood interval.

    Raises:
        ValueError: mismatched or empty inputs, points outside 0…games, no games,
            a negative prior or a bad confidence.
    """
    drop = z_value(confidence) ** 2 / 2
    likelihood = _likelihood(anchors, points, games, prior)
    rating = _newton(*likelihood)
    return AnchoredRating(
        rating,
        _profile_end(rating, -1.0, drop, likelihood),
        _profile_end(rating, 1.0, drop, likelihood),
        confidence,
    )
