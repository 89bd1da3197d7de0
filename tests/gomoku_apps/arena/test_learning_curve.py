"""Learning curves: a run's snapshots read with their counters, rated, written out."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import pytest

from agents.alphazero.trainer import TrainingRun
from agents.scales.reference import read_scale
from gomoku_apps.arena.learning_curve import (
    COLUMNS,
    plot_curve,
    rate_snapshots,
    read_snapshots,
    write_curve_csv,
)
from gomoku_apps.arena.match import Arena
from gomoku_env.config import GameConfig
from tests.agents import faulty_agents
from tests.agents.alphazero.test_trainer import QUICK

FORFEITER = f"python:{faulty_agents.__file__}:Crashing"


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("run")
    run = TrainingRun(dataclasses.replace(QUICK, snapshot_every=1), folder, plot=False)
    run.iterate()
    run.iterate()
    return folder


def test_snapshots_come_in_iteration_order_with_their_counters(run_folder: Path):
    paths = sorted((run_folder / "snapshots").glob("*.pt"), reverse=True)
    snapshots = read_snapshots(paths)
    assert [snapshot.iteration for snapshot in snapshots] == [1, 2]
    assert 0 < snapshots[0].self_play_games < snapshots[1].self_play_games
    assert 0 < snapshots[0].cpu_hours < snapshots[1].cpu_hours


def test_a_file_without_training_counters_is_refused(run_folder: Path):
    from agents.alphazero.checkpoint import save_network

    bare = run_folder.parent / "bare.pt"
    run = TrainingRun(QUICK, run_folder, plot=False)
    save_network(run.network, bare)
    with pytest.raises(ValueError, match="records no training progress"):
        read_snapshots([bare])


def test_each_snapshot_is_rated_between_the_anchors_it_beats_and_loses_to(
    run_folder: Path, tmp_path: Path
):
    ladder = tmp_path / "ladder.csv"
    ladder.write_text(
        f"rank,agent,rating\n1,heuristic,800.0\n2,{FORFEITER},-400.0\n",
        encoding="utf-8",
    )
    config = GameConfig(6, 4)
    scale = read_scale(ladder, config, trust=True)  # the test wrote it
    snapshots = read_snapshots(sorted((run_folder / "snapshots").glob("*.pt")))
    arena = Arena(config, openings="none", seed=0)
    rows = rate_snapshots(arena, snapshots, scale, 2, "simulations=4")
    assert [row["iteration"] for row in rows] == [1, 2]
    for row in rows:
        assert -400 < row["rating"] < 800 + 400
        assert row["low"] < row["rating"] < row["high"]
    write_curve_csv(rows, tmp_path / "curve.csv")
    with (tmp_path / "curve.csv").open(encoding="utf-8") as stream:
        written = list(csv.DictReader(stream))
    assert tuple(written[0]) == COLUMNS and len(written) == 2
    assert float(written[1]["self_play_games"]) == rows[1]["self_play_games"]
    plot_curve({"6x6": rows}, "a toy scale", tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_series_with_equal_scores_stay_visible():
    """Each later series is drawn on top, smaller and in another style, so one at the
    same scores as an earlier one does not hide it (its legend entry stays true)."""
    from gomoku_apps.arena.learning_curve import series_style

    styles = [series_style(number) for number in range(4)]
    assert len({style["marker"] for style in styles}) == 4
    assert len({style["linestyle"] for style in styles}) == 4
    sizes = [style["markersize"] for style in styles]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 4
    assert [style["zorder"] for style in styles] == sorted(s["zorder"] for s in styles)
