"""LearningCurve: the CSV rows it writes, the PNG it draws, and the bad input it refuses."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gomoku_apps.arena.learning_curve import LearningCurve


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def test_rows_are_written_after_every_point(tmp_path: Path) -> None:
    curve = LearningCurve(tmp_path / "out" / "curve.csv", ["random", "heuristic"])
    curve.add(0, 0.0, {"random": 0.5, "heuristic": 0.0})
    curve.add(1000, 0.25, {"random": 0.9, "heuristic": 0.1, "ignored": 1.0})
    rows = read_rows(tmp_path / "out" / "curve.csv")
    assert list(rows[0]) == ["steps", "cpu_hours", "random", "heuristic"]
    assert [(r["steps"], r["random"], r["heuristic"]) for r in rows] == [
        ("0", "0.5", "0.0"),
        ("1000", "0.9", "0.1"),
    ]


def test_png_is_drawn_when_asked(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="needs the plot extra")
    curve = LearningCurve(tmp_path / "c.csv", ["random"], tmp_path / "c.png")
    curve.add(0, 0.0, {"random": 0.5})
    curve.add(10, 0.1, {"random": 0.75})
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_scores_are_refused_and_change_nothing(tmp_path: Path) -> None:
    curve = LearningCurve(tmp_path / "c.csv", ["random", "heuristic"])
    with pytest.raises(ValueError, match="heuristic"):
        curve.add(0, 0.0, {"random": 0.5})
    with pytest.raises(ValueError, match=r"1\.5"):
        curve.add(0, 0.0, {"random": 1.5, "heuristic": 0.0})
    assert curve.rows == [] and not (tmp_path / "c.csv").exists()
    with pytest.raises(ValueError, match="at least one"):
        LearningCurve(tmp_path / "c.csv", [])


def test_a_resumed_run_keeps_the_rows_so_far(tmp_path: Path) -> None:
    first = LearningCurve(tmp_path / "c.csv", ["random", "heuristic"])
    first.add(0, 0.5, {"random": 0.5, "heuristic": 0.0})
    resumed = LearningCurve(tmp_path / "c.csv", ["random", "heuristic"])
    resumed.load_rows()
    resumed.add(100, 0.75, {"random": 1.0, "heuristic": 0.25})
    assert [(r["steps"], r["heuristic"]) for r in read_rows(tmp_path / "c.csv")] == [
        ("0", "0.0"),
        ("100", "0.25"),
    ]
    other = LearningCurve(tmp_path / "c.csv", ["random"])
    with pytest.raises(ValueError, match="not this curve's"):
        other.load_rows()
    assert other.rows == []
    LearningCurve(tmp_path / "none.csv", ["random"]).load_rows()  # no file: no rows


@pytest.mark.parametrize(
    ("row", "why"),
    [("100,0.75,nan", "finite"), ("100,0.75", "not a curve row"), ("x,0.5,1", "'x'")],
)
def test_a_damaged_curve_row_is_refused_naming_its_line(
    tmp_path: Path, row: str, why: str
) -> None:
    """A resumed run read a NaN score into its curve, or stopped on a short row with a
    TypeError traceback."""
    (tmp_path / "c.csv").write_text(f"steps,cpu_hours,random\n0,0.1,0.5\n{row}\n")
    curve = LearningCurve(tmp_path / "c.csv", ["random"])
    with pytest.raises(ValueError, match=r"line 3: not a curve row") as caught:
        curve.load_rows()
    assert why in str(caught.value)
