"""``gomoku train --ray``: self-play on Ray workers, resumed like any run; without Ray
installed, the option says how to get it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from agents.alphazero.checkpoint import load_network
from gomoku_apps.cli.main import main
from tests.gomoku_apps.cli.test_train import TINY_RUN


def _progress(out: Path) -> dict[str, float]:
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    return load_network(out / manifest["checkpoint"])[1]["progress"]


@pytest.mark.usefixtures("ray_cluster")
def test_train_on_ray_runs_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out), "--ray"]) == 0
    printed = capsys.readouterr().out
    assert "self-play on 2 Ray workers" in printed and "starting" in printed
    first = _progress(out)
    # (The budget is tiny: its end may drop the games; the library tests count them.)
    assert first["iteration"] >= 1
    # A budget a hair above the time spent: the resumed run plays one more iteration.
    hours = f"{(first['seconds'] + 0.001) / 3600:.12f}"
    assert main([*TINY_RUN, "--out", str(out), "--ray", "--cpu-hours", hours]) == 0
    assert "resuming" in capsys.readouterr().out
    resumed = _progress(out)
    assert resumed["iteration"] > first["iteration"]
    assert resumed["games"] >= first["games"]


def test_train_with_ray_missing_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main([*TINY_RUN, "--out", str(tmp_path / "run"), "--ray"]) == 2
    assert "pip install -e '.[ray]'" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
