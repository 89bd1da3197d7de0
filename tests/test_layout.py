"""The layout keeps modules small enough to read: no module of the package, the
scripts, the examples or the benchmarks is over 400 lines (STYLE.md)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("gomoku_env", "agents", "gomoku_apps", "scripts", "examples", "benchmarks")
LINE_LIMIT = 400


def test_no_module_is_over_400_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LINE_LIMIT
    }
    assert long == {}
