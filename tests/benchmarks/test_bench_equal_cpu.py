"""benchmarks/bench_equal_cpu.py: the node budget it matches to a reference's cost, and
one small run end to end."""

from __future__ import annotations

import re
import sys

import pytest

from gomoku_apps.arena.openings import builtin_openings
from gomoku_env.config import GameConfig
from tests.scripts_as_modules import load_script

bench = load_script("benchmarks/bench_equal_cpu.py")


def test_the_matched_budget_interpolates_between_the_timed_ones() -> None:
    costs = {40_000: 500.0, 20_000: 250.0, 60_000: 800.0}
    assert bench.matched_nodes(costs, 375.0) == (30_000, True)
    assert bench.matched_nodes(costs, 650.0) == (50_000, True)
    assert bench.matched_nodes(costs, 100.0) == (20_000, False)
    assert bench.matched_nodes(costs, 900.0) == (60_000, False)


def test_a_small_run_times_every_spec_and_names_a_budget(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["bench_equal_cpu.py", "--board-size", "9", "--rounds", "1",
            "--reference", "mcts:simulations=50", "--nodes", "100", "400"]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    bench.main()
    out = capsys.readouterr().out
    positions = int(re.search(r"(\d+) positions on 9x9", out).group(1))
    assert positions > len(builtin_openings(GameConfig(board_size=9)))  # two an opening
    for spec in ("mcts:simulations=50", "alphabeta:nodes=100", "alphabeta:nodes=400"):
        assert re.search(rf"{re.escape(spec)}\s+\d+\.\d", out), spec
    assert re.search(r"equal CPU: alphabeta:nodes=\d+ costs what mcts", out)
