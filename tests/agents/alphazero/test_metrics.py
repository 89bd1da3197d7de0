"""Metrics CSV (kept across resumes) and its plot."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.alphazero.metrics import MetricsLog, plot_metrics


def test_rows_survive_a_restart_and_plot(tmp_path: Path) -> None:
    path = tmp_path / "metrics.csv"
    log = MetricsLog(path)
    log.append({"iteration": 1, "games": 64, "loss": 5.0, "games_per_hour": 900.0})
    log.append({"iteration": 2, "games": 128, "loss": 4.5, "win_rate_vs_mcts": 0.25})
    again = MetricsLog(path)
    assert [row["loss"] for row in again.rows] == ["5", "4.5"]
    assert again.rows[0]["win_rate_vs_mcts"] == ""
    plot_metrics(path, tmp_path / "metrics.png")
    assert (tmp_path / "metrics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_column_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown metrics columns"):
        MetricsLog(tmp_path / "m.csv").append({"iteration": 1, "elo": 3})


def test_a_run_without_evaluations_gets_no_empty_score_panel(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "metrics.csv"
    log = MetricsLog(path)
    for iteration in (1, 2, 3):
        log.append({"iteration": iteration, "games": 64 * iteration, "loss": 5.0 - iteration,
                    "games_per_hour": 900.0})  # fmt: skip
    plot_metrics(path, tmp_path / "two.png")
    log.append({"iteration": 4, "games": 256, "loss": 1.0, "win_rate_vs_mcts": 0.5})
    plot_metrics(path, tmp_path / "three.png")
    with (
        Image.open(tmp_path / "two.png") as two,
        Image.open(tmp_path / "three.png") as three,
    ):
        # Two panels (loss, per hour) are narrower than three (with the scores).
        assert two.width < three.width * 0.8
