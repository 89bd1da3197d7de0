"""Bradley-Terry (Davidson) fit: recovers known strengths, hand-computed intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gomoku_apps.arena.bradley_terry import fit_ratings, pair_residuals

NAMES = ["random", "b", "c", "d"]
TRUE = np.array([0.0, 200.0, 450.0, -120.0])
NU = 0.4


def _probabilities(i: int, j: int) -> tuple[float, float, float]:
    half = (TRUE[i] - TRUE[j]) * math.log(10) / 800
    total = math.exp(half) + math.exp(-half) + NU
    return math.exp(half) / total, NU / total, math.exp(-half) / total


def _results(games_per_pair: float, rng: np.random.Generator | None = None):
    wins, draws = np.zeros((4, 4)), np.zeros((4, 4))
    for i in range(4):
        for j in range(i + 1, 4):
            p = _probabilities(i, j)
            counts = (
                np.array(p) * games_per_pair
                if rng is None
                else rng.multinomial(games_per_pair, p)
            )
            wins[i, j], draws[i, j], wins[j, i] = counts
            draws[j, i] = draws[i, j]
    return wins, draws


def test_exact_expected_results_recover_the_strengths():
    wins, draws = _results(1000)
    fit = fit_ratings(NAMES, wins, draws, "random", prior=0, draw_model="davidson")
    assert fit.ratings == pytest.approx(tuple(TRUE), abs=1e-6)
    assert fit.draw_parameter == pytest.approx(NU)
    assert fit.margins[0] == 0 and all(m > 0 for m in fit.margins[1:])


def test_sampled_results_fall_within_the_intervals():
    wins, draws = _results(400, np.random.default_rng(5))
    fit = fit_ratings(NAMES, wins, draws, "random", draw_model="davidson")
    for rating, margin, true in zip(fit.ratings, fit.margins, TRUE, strict=True):
        assert abs(rating - true) <= margin + 1e-9


def test_anchor_moves_the_scale_not_the_differences():
    wins, draws = _results(1000)
    fit = fit_ratings(NAMES, wins, draws, "c", prior=0, draw_model="davidson")
    assert fit.rating("c") == 0
    assert fit.rating("b") - fit.rating("random") == pytest.approx(200, abs=1e-6)


def test_two_players_without_draws_hand_computed():
    # 30-10: rating 400·log10(3) = 190.85; Fisher information N·p·(1-p) = 7.5 in
    # natural units, so the 95% margin is 1.96 · (400 / ln 10) / sqrt(7.5) = 124.33.
    fit = fit_ratings(
        ["random", "x"], [[0, 10], [30, 0]], np.zeros((2, 2)), "random", 0
    )
    assert fit.rating("x") == pytest.approx(190.85, abs=0.01)
    assert fit.margins[1] == pytest.approx(124.33, abs=0.01)
    assert fit.draw_parameter == 0


def test_half_draw_model_hand_computed():
    # 30 wins and 20 draws against 10 losses... as half points: score 40/60 = 2/3, so
    # the gap is 400·log10(2) = 120.41; information 60·(2/3)·(1/3) = 13.33, margin
    # 1.96 · (400 / ln 10) / sqrt(13.33) = 93.24.
    draws = np.array([[0, 20], [20, 0]])
    fit = fit_ratings(["random", "x"], [[0, 10], [30, 0]], draws, "random", 0)
    assert fit.draw_model == "half" and fit.draw_parameter == 0
    assert fit.rating("x") == pytest.approx(120.41, abs=0.01)
    assert fit.margins[1] == pytest.approx(93.24, abs=0.01)


def test_half_draws_recover_ratings_from_expected_scores():
    # Each pair scores exactly its logistic expectation, partly through 20% draws:
    # under the "half" model the draw rate does not matter, only the score.
    true = np.array([0.0, 100.0, 350.0])
    wins, draws = np.zeros((3, 3)), np.zeros((3, 3))
    for i in range(3):
        for j in range(i + 1, 3):
            score = 1 / (1 + 10 ** ((true[j] - true[i]) / 400))
            draws[i, j] = draws[j, i] = 20
            wins[i, j], wins[j, i] = 100 * score - 10, 100 * (1 - score) - 10
    fit = fit_ratings(["random", "b", "c"], wins, draws, "random", prior=0)
    assert fit.ratings == pytest.approx(tuple(true), abs=1e-6)


def test_prior_keeps_a_clean_sweep_finite():
    fit = fit_ratings(["random", "x"], [[0, 0], [10, 0]], np.zeros((2, 2)), "random")
    # 10 wins plus one virtual game split in two: score 10.5 / 11.
    assert fit.rating("x") == pytest.approx(400 * math.log10(10.5 / 0.5), abs=0.01)


def test_bad_inputs_are_rejected():
    zeros = np.zeros((3, 3))
    linked = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]])
    with pytest.raises(ValueError, match=r"not linked.*'c'"):
        fit_ratings(["a", "b", "c"], linked, zeros, "a")
    with pytest.raises(ValueError, match="anchor 'z'"):
        fit_ratings(["a", "b", "c"], linked, zeros, "z")
    with pytest.raises(ValueError, match="shape"):
        fit_ratings(["a", "b"], linked, zeros, "a")
    with pytest.raises(ValueError, match="draw_model"):
        fit_ratings(["a", "b", "c"], linked, zeros, "a", draw_model="bayes")


def test_a_gap_margin_counts_both_ratings_and_their_covariance():
    wins, draws = _results(400, np.random.default_rng(2))
    fit = fit_ratings(NAMES, wins, draws, "random")
    gap, margin = fit.gap("c", "b")
    assert gap == pytest.approx(fit.rating("c") - fit.rating("b"))
    # Against the anchor the gap is the rating itself, with its margin.
    assert fit.gap("b", "random") == pytest.approx((fit.rating("b"), fit.margins[1]))
    # b and c share the games they played with the others: their errors correlate, so
    # the gap is known better than the two margins added in quadrature.
    assert 0 < margin < math.hypot(fit.margins[1], fit.margins[2])


def test_residuals_find_a_matchup_that_the_ratings_do_not_explain():
    """A transitive set of results fits: no pair outside its interval. Make d beat c
    (which the ratings put 570 Elo above d) in most games and that pair is outside."""
    wins, draws = _results(400)
    fit = fit_ratings(NAMES, wins, draws, "random", prior=0)
    residuals = pair_residuals(fit, wins, draws)
    assert len(residuals) == 6 and not any(r.outside for r in residuals)
    for r in residuals:
        assert r.low < r.predicted < r.high
    wins[3, 2], wins[2, 3] = wins[2, 3], wins[3, 2]
    fit = fit_ratings(NAMES, wins, draws, "random", prior=0)
    flagged = {
        (r.first, r.second) for r in pair_residuals(fit, wins, draws) if r.outside
    }
    assert ("c", "d") in flagged


def test_games_played_again_move_for_move_count_once_in_the_residuals():
    """400 games that are 100 distinct games, each played four times, know a pair's
    score only as well as 100 games: a deviation that 400 independent games would flag
    lies inside the interval of 100."""
    wins, draws = _results(400)
    wins[1, 2] += 60  # b takes 60 of c's wins against it
    wins[2, 1] -= 60
    fit = fit_ratings(NAMES, wins, draws, "random", prior=0)
    independent = {(r.first, r.second): r for r in pair_residuals(fit, wins, draws)}
    repeated = {
        (r.first, r.second): r
        for r in pair_residuals(fit, wins, draws, {(1, 2): [4] * 100})
    }
    assert independent["b", "c"].outside and not repeated["b", "c"].outside
    assert (independent["b", "c"].distinct, repeated["b", "c"].distinct) == (400, 100)
    width = repeated["b", "c"].high - repeated["b", "c"].low
    assert width == pytest.approx(
        2 * (independent["b", "c"].high - independent["b", "c"].low)
    )
    assert (
        repeated["b", "d"] == independent["b", "d"]
    )  # pairs without repeats: as before
    with pytest.raises(
        ValueError, match="b and c played 400 games, but their repeats count 399"
    ):
        pair_residuals(fit, wins, draws, {(1, 2): [4] * 99 + [3]})


@pytest.mark.parametrize("draw_model", ["half", "davidson"])
def test_games_played_again_widen_the_margins_and_leave_the_ratings(draw_model):
    """Two players whose 400 games are 100 distinct ones played four times each know
    their gap as well as 100 games do: the same ratings, margins twice as wide (the
    design effect is 4). All-distinct repeats change nothing."""
    names = ["random", "x"]
    wins, draws = np.array([[0.0, 100.0], [260.0, 0.0]]), np.zeros((2, 2))
    draws[0, 1] = draws[1, 0] = 40.0

    def fit(wins, draws, repeats=None):
        return fit_ratings(names, wins, draws, "random", 0, 0.95, draw_model, repeats)

    every = fit(wins, draws)
    repeated = fit(wins, draws, {(0, 1): [4] * 100})
    distinct = fit(wins, draws, {(0, 1): [1] * 400})
    hundred = fit(wins / 4, draws / 4)
    assert repeated.ratings == pytest.approx(every.ratings)
    assert repeated.margins[1] == pytest.approx(2 * every.margins[1])
    assert repeated.margins[1] == pytest.approx(hundred.margins[1])
    assert distinct.margins == pytest.approx(every.margins)
    with pytest.raises(ValueError, match="random and x played 400 games"):
        fit_ratings(names, wins, draws, "random", repeats={(0, 1): [4] * 99})


def test_repeats_widen_only_what_the_replaying_pair_measured():
    """In a chain random–b–c with replays only between b and c, the gap b–c widens by
    about the design effect's root while random–b stays nearly as it was."""
    names = ["random", "b", "c"]
    wins = np.array([[0.0, 100.0, 0.0], [300.0, 0.0, 120.0], [0.0, 280.0, 0.0]])
    draws = np.zeros((3, 3))
    fit = fit_ratings(names, wins, draws, "random", prior=0)
    repeated = fit_ratings(
        names, wins, draws, "random", prior=0, repeats={(1, 2): [8] * 50}
    )
    assert repeated.ratings == pytest.approx(fit.ratings)
    assert repeated.margins[1] == pytest.approx(fit.margins[1])
    assert repeated.gap("c", "b")[1] == pytest.approx(
        math.sqrt(8) * fit.gap("c", "b")[1]
    )
