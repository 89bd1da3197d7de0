"""One rating against fixed anchors: exact cases, sweeps, and a brute-force oracle."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from agents.scales.anchored_fit import fit_anchored_rating
from agents.scales.stats import score_from_elo

ANCHORS = [0.0, 300.0, 700.0, 1000.0]


def _log_likelihood(rating, anchors, points, games, prior=1.0):
    """The oracle: the prior's virtual draws against the weakest and the strongest
    anchor played only."""
    played_anchors = [a for a, g in zip(anchors, games, strict=True) if g > 0]
    ends = {min(played_anchors), max(played_anchors)}
    total = 0.0
    for anchor, scored, played in zip(anchors, points, games, strict=True):
        if played == 0:
            continue
        expected = score_from_elo(rating - anchor)
        if anchor in ends:
            scored, played = scored + prior / 2, played + prior
        total += scored * math.log(expected) + (played - scored) * math.log(
            1 - expected
        )
    return total


def test_an_even_score_against_one_anchor_is_its_rating_exactly():
    fitted = fit_anchored_rating([412.5], points=[5.0], games=[10])
    assert fitted.rating == pytest.approx(412.5, abs=1e-9)
    assert fitted.rating - fitted.low == pytest.approx(fitted.high - fitted.rating)


def test_mirrored_results_around_two_anchors_land_midway():
    fitted = fit_anchored_rating([-150.0, 250.0], points=[7.0, 3.0], games=[10, 10])
    assert fitted.rating == pytest.approx(50.0, abs=1e-6)


def test_the_score_of_a_known_gap_gives_the_gap_back():
    # Scoring exactly the expected points of a player rated 200 above the anchor.
    points = 1000 * score_from_elo(200.0)
    fitted = fit_anchored_rating([100.0], [points], [1000], prior=0.0)
    assert fitted.rating == pytest.approx(300.0, abs=1e-6)


@pytest.mark.parametrize("games", [2, 8, 50])
def test_all_wins_and_all_losses_are_finite_and_beyond_the_anchors(games):
    played = [games] * len(ANCHORS)
    best = fit_anchored_rating(ANCHORS, points=played, games=played)
    worst = fit_anchored_rating(ANCHORS, points=[0] * len(ANCHORS), games=played)
    for fitted in (best, worst):
        assert all(map(math.isfinite, (fitted.rating, fitted.low, fitted.high)))
        assert fitted.low < fitted.rating < fitted.high
    assert best.rating > max(ANCHORS) and worst.rating < min(ANCHORS)
    # The data bound a sweep well on one side only: the interval is lopsided.
    assert best.high - best.rating > best.rating - best.low


def test_the_fit_maximises_the_likelihood_and_the_interval_is_its_drop():
    points, games = [6.0, 4.5, 2.0, 0.5], [6, 8, 6, 4]
    fitted = fit_anchored_rating(ANCHORS, points, games)
    grid = np.linspace(-500, 1500, 20001)
    values = np.array([_log_likelihood(r, ANCHORS, points, games) for r in grid])
    assert fitted.rating == pytest.approx(grid[values.argmax()], abs=0.2)
    peak = _log_likelihood(fitted.rating, ANCHORS, points, games)
    for end in (fitted.low, fitted.high):
        drop = peak - _log_likelihood(end, ANCHORS, points, games)
        assert drop == pytest.approx(1.959964**2 / 2, abs=1e-4)


def test_more_games_narrow_the_interval():
    widths = []
    for games in (4, 16, 64, 256):
        points = [games * 0.9, games * 0.6, games * 0.3, games * 0.1]
        fitted = fit_anchored_rating(ANCHORS, points, [games] * len(ANCHORS))
        widths.append(fitted.high - fitted.low)
    assert all(later < earlier / 1.5 for earlier, later in itertools.pairwise(widths))


def test_an_anchor_without_games_changes_nothing():
    with_idle = fit_anchored_rating([0.0, 500.0], points=[3.0, 0.0], games=[4, 0])
    alone = fit_anchored_rating([0.0], points=[3.0], games=[4])
    assert with_idle == alone


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (([], [], []), "not empty"),
        (([0.0], [1.0, 2.0], [4]), "equally long"),
        (([0.0], [5.0], [4]), "5.0 in 4 games"),
        (([math.inf], [1.0], [4]), "finite"),
        (([0.0], [0.0], [0]), "no games"),
    ],
)
def test_bad_results_are_clear_errors(arguments, message):
    with pytest.raises(ValueError, match=message):
        fit_anchored_rating(*arguments)


def test_a_sweep_without_a_prior_is_refused():
    with pytest.raises(ValueError, match="prior > 0"):
        fit_anchored_rating([0.0], [4.0], [4], prior=0.0)
    with pytest.raises(ValueError, match="-1"):
        fit_anchored_rating([0.0], [2.0], [4], prior=-1)


def test_few_games_all_lost_rate_below_the_weakest_anchor():
    # 2 games against each of five anchors: the prior must not outweigh them
    # (a virtual draw against every anchor put such an agent at +80).
    anchors = [0.0, 300.0, 700.0, 1100.0, 1500.0]
    lost = fit_anchored_rating(anchors, [0.0] * 5, [2] * 5)
    assert lost.rating < min(anchors)
    won = fit_anchored_rating(anchors, [2.0] * 5, [2] * 5)
    assert won.rating > max(anchors)
    middling = fit_anchored_rating(anchors, [2.0, 2.0, 1.0, 0.0, 0.0], [2] * 5)
    assert 300 < middling.rating < 1100
