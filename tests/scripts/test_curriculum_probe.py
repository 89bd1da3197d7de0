"""scripts/curriculum_probe.py: the curriculum's reading of an agent that does not learn."""

from __future__ import annotations

import pytest

from tests.scripts_as_modules import load_script


def load_probe():
    return load_script("scripts/curriculum_probe.py").probe


def test_the_probe_reads_a_rating_from_the_games_it_played() -> None:
    result = load_probe()("random", "black", 4, 0, 9)
    assert sum(count for _, count in result["anchors"]) == 4
    assert 0.0 <= result["score"] <= 1.0
    # Random against the weakest anchors: its running rating stays near the bottom.
    assert -400 < result["final_rating"] < 400


def test_the_probe_refuses_a_game_count_out_of_range() -> None:
    with pytest.raises(ValueError, match="games"):
        load_probe()("random", "black", 0, 0, 9)


def test_the_probe_counts_the_opponent_sides_cpu_and_takes_the_curriculums_options():
    from agents.scales.reference import reference_scale

    result = load_probe()(
        "random", "white", 3, 0, 9, "curriculum:scale=9x9-v1,leeway=0"
    )
    assert result["env_ms_per_learner_move"] > 0
    assert result["learner_ms_per_move"] >= 0
    v1 = {anchor.spec for anchor in reference_scale(version="9x9-v1").anchors}
    assert {anchor for anchor, _ in result["anchors"]} <= v1
    with pytest.raises(ValueError, match="9x9-v9"):
        load_probe()("random", "white", 3, 0, 9, "curriculum:scale=9x9-v9")
    with pytest.raises(ValueError, match="'heuristic'"):
        load_probe()("random", "white", 3, 0, 9, "heuristic")
