"""Anchor families: the anchors a rating round meets, and each family's own rating."""

from __future__ import annotations

import math

import pytest

from agents.scales.reference import Anchor
from gomoku_apps.arena.families import (
    REACH,
    disagree,
    family,
    family_lines,
    family_ratings,
    round_anchors,
)
from gomoku_apps.arena.results import Tally

RATINGS = [0.0, 650.0, 700.0, 760.0, 800.0, 1500.0]
KINDS = ["random", "mcts", "mcts", "heuristic", "ppo", "alphabeta"]


def test_a_family_is_the_agents_name():
    assert family("mcts:simulations=50,c=1.4") == "mcts"
    assert family("heuristic") == "heuristic"


def test_a_round_meets_the_nearest_anchor_of_each_family_within_reach():
    chosen = round_anchors(RATINGS, KINDS, 720, spread=3)
    assert chosen == [2, 3, 4]  # mcts 700, heuristic 760, ppo 800: one each
    assert round_anchors(RATINGS, KINDS, 720, spread=2) == [2, 3]
    # Families out of reach are not met: alpha-beta is 780 away.
    assert 5 not in round_anchors(RATINGS, KINDS, 720, spread=6)
    assert abs(RATINGS[5] - 720) > REACH


def test_a_round_plays_two_anchors_at_least():
    # Near 0 only random is within reach: the nearest other anchor fills the round.
    assert round_anchors(RATINGS, KINDS, -100, spread=3) == [0, 1]
    # Far above every anchor: the nearest, whatever its distance.
    assert round_anchors(RATINGS, KINDS, 5000, spread=3) == [5, 4]


def test_spread_one_is_the_two_nearest_anchors():
    for estimate in (-50, 640, 720, 790, 1200):
        nearest = sorted(range(6), key=lambda k: (abs(RATINGS[k] - estimate), k))[:2]
        assert round_anchors(RATINGS, KINDS, estimate, spread=1) == nearest


ANCHORS = [
    Anchor("mcts:simulations=100", 1000.0, 50.0),
    Anchor("mcts:simulations=200", 1100.0, 50.0),
    Anchor("heuristic", 1050.0, 50.0),
    Anchor("alphabeta:nodes=500", 1400.0, 60.0),
]


def test_each_family_is_rated_from_its_own_games():
    even = Tally(20, 0, 20)
    tallies = [even, even, Tally(0, 0, 0), even]
    ratings = family_ratings(ANCHORS, tallies, [40, 40, 0, 40])
    assert [r.family for r in ratings] == ["mcts", "alphabeta"]  # heuristic unplayed
    assert ratings[0].games == 80 and ratings[1].games == 40
    assert ratings[0].rating.rating == pytest.approx(1050, abs=1)
    assert ratings[1].rating.rating == pytest.approx(1400, abs=1)
    assert disagree(*ratings)
    lines = family_lines(ratings)
    assert lines[0].startswith("by family: mcts +1050")
    assert "mcts and alphabeta" in lines[1]
    # The same scores from games that replay one another (worth 4 games each) leave
    # each family's rating where it was, its interval wider: they no longer disagree.
    replayed = family_ratings(ANCHORS, tallies, [4, 4, 0, 4])
    assert replayed[1].rating.rating == pytest.approx(1400, abs=1)
    assert replayed[1].rating.high - replayed[1].rating.low > 2 * (
        ratings[1].rating.high - ratings[1].rating.low
    )
    assert not disagree(*replayed)


def test_families_that_agree_within_their_intervals_are_not_named():
    ratings = family_ratings(
        ANCHORS,
        [Tally(5, 0, 5), Tally(4, 0, 6), Tally(6, 0, 4), Tally(1, 0, 9)],
        [10, 10, 10, 10],
    )
    assert len(ratings) == 3 and not any(
        disagree(a, b) for a in ratings for b in ratings if a is not b
    )
    assert len(family_lines(ratings)) == 1
    (alone,) = family_lines(ratings[:1])  # one family: it says so
    assert alone.startswith(f"one family met: {ratings[0].family} (")
    assert "not measured here" in alone
    assert family_lines([]) == []


def test_a_family_swept_in_a_few_games_bounds_the_rating_on_one_side_only():
    """Two wins against each MCTS anchor put that family's estimate near +1400 (the
    fit's virtual draws keep it finite), far below alpha-beta's +1800 from 40 even
    games; but a sweep says only "at least", so the families do not disagree."""
    tallies = [Tally(2, 0, 0), Tally(2, 0, 0), Tally(0, 0, 0), Tally(33, 0, 7)]
    ratings = family_ratings(ANCHORS, tallies, [2, 2, 0, 40])
    mcts, alphabeta = ratings
    assert mcts.rating.high == math.inf and mcts.rating.rating < alphabeta.rating.low
    assert not disagree(mcts, alphabeta)
    assert "unbounded, 4 games" in family_lines(ratings)[0]
    assert len(family_lines(ratings)) == 1
    lost = family_ratings(ANCHORS, [Tally(0, 0, 2)] * 2 + tallies[2:], [2, 2, 0, 40])
    assert lost[0].rating.low == -math.inf and lost[0].rating.high < math.inf
