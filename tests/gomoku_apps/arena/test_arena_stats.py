"""Score, Elo and SPRT maths against values computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gomoku_apps.arena.sprt import SPRT, SPRTDecision
from gomoku_apps.arena.stats import (
    elo_from_score,
    format_elo,
    score_from_elo,
    summarize,
)


def test_elo_from_score_hand_values():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_from_score(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert score_from_elo(elo_from_score(0.3)) == pytest.approx(0.3)


def test_summary_hand_computed():
    # 6 wins, 2 draws, 2 losses: score 0.7; per-game variance
    # (6·0.3² + 2·0.2² + 2·0.7²) / 10 = 0.16; margin 1.96·sqrt(0.016) = 0.24792.
    summary = summarize(6, 2, 2)
    assert summary.games == 10
    assert summary.score == pytest.approx(0.7)
    assert summary.score_low == pytest.approx(0.452082, abs=1e-5)
    assert summary.score_high == pytest.approx(0.947918, abs=1e-5)
    assert summary.elo == pytest.approx(147.19, abs=0.01)
    assert summary.elo_low == pytest.approx(-33.40, abs=0.01)
    assert summary.elo_high == pytest.approx(504.04, abs=0.01)


def test_summary_all_draws_and_clean_sweep():
    draws = summarize(0, 8, 0)
    assert (draws.score_low, draws.score_high, draws.elo) == (0.5, 0.5, 0.0)
    sweep = summarize(5, 0, 0)
    assert sweep.elo == math.inf and sweep.score_low == 1.0


def test_summary_rejects_bad_counts():
    with pytest.raises(ValueError, match="no games"):
        summarize(0, 0, 0)
    with pytest.raises(ValueError, match="-1"):
        summarize(-1, 2, 3)
    with pytest.raises(ValueError, match="confidence"):
        summarize(1, 1, 1, confidence=1.5)


def test_format_elo():
    assert [format_elo(x) for x in (12.4, -0.2, -math.inf)] == ["+12", "0", "-inf"]


def test_sprt_bounds_and_llr_hand_computed():
    test = SPRT(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    assert test.bounds == pytest.approx((-math.log(19), math.log(19)))
    # W/D/L 30/10/20: mean 0.58333, variance 0.201389, s1 = 0.571463:
    # 60/2 · ln((0.201389 + 0.083333²) / (0.201389 + 0.011870²)) = 0.99603
    assert test.llr(30, 10, 20) == pytest.approx(0.99603, abs=1e-4)
    assert test.llr(0, 0, 0) == 0
    assert test.decide(30, 10, 20) is SPRTDecision.CONTINUE


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"alpha": 0.7}, "alpha"),
        ({"beta": 0}, "beta"),
        ({"elo0": 10, "elo1": 5}, "elo0"),
    ],
)
def test_sprt_rejects_bad_parameters(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SPRT(**kwargs)


def _run_sprt(
    test: SPRT, elo: float, draw_rate: float, rng: np.random.Generator
) -> str:
    score = score_from_elo(elo)
    win = score - draw_rate / 2
    counts = [0, 0, 0]
    for _ in range(20000):
        counts[rng.choice(3, p=[win, draw_rate, 1 - win - draw_rate])] += 1
        decision = test.decide(*counts)
        if decision is not SPRTDecision.CONTINUE:
            return decision.value
    return "continue"


@pytest.mark.parametrize(
    ("true_elo", "expected"), [(0, "H0"), (100, "H1"), (-100, "H0")]
)
def test_sprt_decides_synthetic_streams_at_its_error_rates(true_elo, expected):
    test = SPRT(elo0=0, elo1=100, alpha=0.05, beta=0.05)
    rng = np.random.default_rng(11)
    decisions = [_run_sprt(test, true_elo, 0.2, rng) for _ in range(150)]
    assert "continue" not in decisions
    correct = decisions.count(expected) / len(decisions)
    assert correct >= 0.9, decisions
