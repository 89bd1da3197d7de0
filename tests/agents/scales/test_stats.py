"""Score, Elo and SPRT maths against values computed by hand."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from agents.scales.stats import (
    elo_from_score,
    format_elo,
    format_elo_interval,
    score_from_elo,
    summarize,
    wilson_interval,
)
from gomoku_apps.arena.sprt import SPRT, SPRTDecision


def test_elo_from_score_hand_values():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_from_score(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert score_from_elo(elo_from_score(0.3)) == pytest.approx(0.3)


def test_summary_hand_computed():
    # 6 wins, 2 draws, 2 losses: score 0.7 over n = 10; s = 1.959964² / 10 = 0.384146;
    # Wilson centre (0.7 + s/2) / (1 + s) = 0.644493, half-width
    # sqrt(s·0.7·0.3 + s²/4) / (1 + s) = 0.247715.
    summary = summarize(6, 2, 2)
    assert summary.games == 10
    assert summary.score == pytest.approx(0.7)
    assert summary.score_low == pytest.approx(0.396778, abs=1e-5)
    assert summary.score_high == pytest.approx(0.892208, abs=1e-5)
    assert summary.elo == pytest.approx(147.19, abs=0.01)
    assert summary.elo_low == pytest.approx(elo_from_score(0.396778), abs=0.01)
    assert summary.elo_high == pytest.approx(elo_from_score(0.892208), abs=0.01)
    assert format_elo_interval(summary) == "+147 (95% CI -73 … +367)"


@pytest.mark.parametrize("games", [1, 6, 40])
def test_a_clean_sweep_has_a_wide_interval_and_only_finite_numbers(games):
    z_squared = 1.959964**2
    sweep = summarize(games, 0, 0)
    assert sweep.score == 1.0 and sweep.score_high == 1.0
    # Wilson's lower end at 100%: n / (n + z²), well below 1 for a short match.
    assert sweep.score_low == pytest.approx(games / (games + z_squared), abs=1e-6)
    assert sweep.elo is None and sweep.elo_high is None
    assert math.isfinite(sweep.elo_low)
    text = format_elo_interval(sweep)
    assert text.startswith(f"> {format_elo(sweep.elo_low)} (95% CI ")
    assert f"unbounded: all {games} games won" in text and "inf" not in text
    wipeout = summarize(0, 0, games)
    assert (wipeout.score_low, wipeout.score_high) == pytest.approx(
        (1 - sweep.score_high, 1 - sweep.score_low)
    )
    assert wipeout.elo is None and wipeout.elo_low is None
    assert wipeout.elo_high == pytest.approx(-sweep.elo_low)
    assert format_elo_interval(wipeout).startswith(f"< {format_elo(-sweep.elo_low)}")


def test_six_nil_reads_as_the_issue_wanted():
    assert format_elo_interval(summarize(6, 0, 0)) == (
        "> +77 (95% CI +77 … unbounded: all 6 games won)"
    )


@pytest.mark.parametrize(("wins", "draws", "losses"), [(3, 0, 3), (0, 8, 0), (2, 4, 2)])
def test_an_even_score_has_a_symmetric_interval(wins, draws, losses):
    even = summarize(wins, draws, losses)
    assert even.score == 0.5 and even.elo == 0
    assert even.score_low + even.score_high == pytest.approx(1.0)
    assert even.elo_low == pytest.approx(-even.elo_high)
    # Even all draws leave the true score uncertain: no zero-width interval.
    assert even.score_high - even.score_low > 0.4


@pytest.mark.parametrize("fraction", [0.0, 0.5, 0.8, 1.0])
def test_the_interval_narrows_with_more_games(fraction):
    widths = []
    for games in (10, 40, 160, 640):
        wins = round(fraction * games)
        summary = summarize(wins, 0, games - wins)
        assert summary.score_low <= summary.score <= summary.score_high
        widths.append(summary.score_high - summary.score_low)
    assert all(later < earlier for earlier, later in itertools.pairwise(widths))
    assert widths[-1] < widths[0] / 4 + 0.01


def test_wilson_interval_rejects_bad_input():
    with pytest.raises(ValueError, match=r"1\.5"):
        wilson_interval(1.5, 10)
    with pytest.raises(ValueError, match="at least one game"):
        wilson_interval(0.5, 0)


def test_summary_rejects_bad_counts():
    with pytest.raises(ValueError, match="no games"):
        summarize(0, 0, 0)
    with pytest.raises(ValueError, match="-1"):
        summarize(-1, 2, 3)
    with pytest.raises(ValueError, match="confidence"):
        summarize(1, 1, 1, confidence=1.5)


def test_format_elo():
    assert [format_elo(x) for x in (12.4, -0.2, -190.8)] == ["+12", "0", "-191"]
    with pytest.raises(ValueError, match="infinite"):
        format_elo(math.inf)


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
