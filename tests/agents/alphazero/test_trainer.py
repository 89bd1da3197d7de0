"""The training loop: files each iteration, resume after a kill, clear errors."""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.alphazero.checkpoint import CheckpointError, load_network
from agents.alphazero.metrics import MetricsLog
from agents.alphazero.trainer import TrainingRun
from agents.alphazero.training_config import (
    BudgetDefaults,
    DistillationConfig,
    LearnerConfig,
    SelfPlayConfig,
    TrainingConfig,
    budget_defaults,
)
from agents.budget import Budget
from agents.search import SELF_PLAY_PRESET
from gomoku_env.config import GameConfig, Rule
from tests.agents.alphazero.test_network import TINY

QUICK = TrainingConfig(
    game=GameConfig(6, 4),
    network=TINY,
    self_play=SelfPlayConfig(
        parallel_games=4,
        full_search=Budget(simulations=8),
        fast_search=Budget(simulations=4),
        search=replace(SELF_PLAY_PRESET, leaves_per_round=2),
    ),
    replay_capacity=500,
    batch_size=16,
    min_replay=8,
    evaluation_every=0,
    cpu_hours=1.0,
    seed=3,
)


def test_a_killed_run_resumes_with_its_weights_counters_and_replay(
    tmp_path: Path,
) -> None:
    run = TrainingRun(QUICK, tmp_path, plot=False)
    run.iterate()
    run.iterate()
    assert {"latest-000002.pt", "replay-000002.npz", "metrics.csv"} <= {
        path.name for path in tmp_path.iterdir()
    }
    # A new process on the same folder: as if the first one had been killed here.
    resumed = TrainingRun(QUICK, tmp_path, plot=False)
    assert resumed.resumed
    assert resumed.progress == run.progress and resumed.progress.iteration == 2
    assert len(resumed.replay) == len(run.replay) == run.progress.samples
    for name, tensor in run.network.state_dict().items():
        torch.testing.assert_close(resumed.network.state_dict()[name], tensor)
    resumed.iterate()
    rows = MetricsLog(tmp_path / "metrics.csv").rows
    assert [row["iteration"] for row in rows] == ["1", "2", "3"]
    assert resumed.replay.total_added == resumed.progress.samples


def test_resuming_a_run_of_another_board_size_is_refused(tmp_path: Path) -> None:
    TrainingRun(QUICK, tmp_path, plot=False).iterate()
    other = TrainingConfig(game=GameConfig(7, 4), network=TINY)
    with pytest.raises(CheckpointError, match=r"another game \(board_size 6 → 7"):
        TrainingRun(other, tmp_path)


def test_learning_rate_schedule_steps_down() -> None:
    learner = LearnerConfig(learning_rate=1.0)
    rates = [learner.learning_rate_at(fraction) for fraction in np.linspace(0, 1, 11)]
    assert rates[0] == 1.0 and rates[-1] == pytest.approx(0.1)
    assert rates == sorted(rates, reverse=True)


def test_the_learning_rate_schedule_is_the_configs(tmp_path: Path) -> None:
    learner = LearnerConfig(
        learning_rate=0.01, first_drop_at=0.2, first_drop=0.5, final_drop_at=0.4,
        final_drop=0.25,
    )  # fmt: skip
    assert [learner.learning_rate_at(f) for f in (0.1, 0.3, 0.5)] == pytest.approx(
        [0.01, 0.005, 0.0025]
    )
    run = TrainingRun(dataclasses.replace(QUICK, learner=learner), tmp_path, plot=False)
    run.progress.cpu_seconds = 0.3 * 3600  # 30% of the CPU hour spent: the first drop
    run.iterate()
    assert run.learner.optimizer.param_groups[0]["lr"] == pytest.approx(0.005)
    with pytest.raises(ValueError, match=r"final_drop_at must be >= first_drop_at"):
        LearnerConfig(first_drop_at=0.9, final_drop_at=0.5)


@pytest.mark.parametrize(("threshold", "promoted"), [(0.5, True), (0.75, False)])
def test_the_gating_threshold_decides_which_network_becomes_best(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threshold: float, promoted: bool
) -> None:
    config = dataclasses.replace(QUICK, gating_threshold=threshold)
    run = TrainingRun(config, tmp_path, plot=False)
    monkeypatch.setattr(run, "_evaluate_if_due", lambda rng: {"win_rate_vs_best": 0.6})
    run.iterate()  # a new run writes best.pt only when a gating match is won
    best = tmp_path / "best.pt"
    assert best.is_file() == promoted
    if promoted:
        assert load_network(best)[1]["progress"]["iteration"] == 1


def test_bad_training_settings_name_the_value() -> None:
    with pytest.raises(ValueError, match=r"SelfPlayConfig\.parallel_games must be"):
        SelfPlayConfig(parallel_games=0)
    with pytest.raises(
        ValueError, match=r"dirichlet_fraction must be a finite number >= 0 and <= 1"
    ):
        replace(SELF_PLAY_PRESET, dirichlet_fraction=1.5)
    with pytest.raises(ValueError, match=r"TrainingConfig\.batch_size must be"):
        TrainingConfig(batch_size=0)


@pytest.mark.parametrize(
    ("budgets", "error", "message"),
    [
        (
            {"full_search": Budget(simulations=8, time=1.0)},
            ValueError,
            r"SelfPlayConfig\.full_search \(self-play counts work, so that a seed "
            r"replays its games\) cannot count time \(got time=1\.0\); give "
            r"simulations",
        ),
        (
            {"fast_search": Budget(nodes=100)},
            ValueError,
            r"SelfPlayConfig\.fast_search .* cannot count nodes",
        ),
        ({"full_search": 100}, TypeError, r"full_search must be a Budget, got 100"),
    ],
)
def test_self_play_takes_work_budgets_only(
    budgets: dict, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        SelfPlayConfig(**budgets)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"win_length": 5}, "win_length 4 → 5"),
        ({"rule": Rule.STANDARD}, "rule freestyle → standard"),
    ],
)
def test_resuming_with_another_game_names_the_difference(
    tmp_path: Path, change: dict[str, object], named: str
) -> None:
    TrainingRun(QUICK, tmp_path, plot=False).iterate()
    game = dataclasses.replace(QUICK.game, **change)
    other = dataclasses.replace(QUICK, game=game)
    with pytest.raises(CheckpointError, match=named):
        TrainingRun(other, tmp_path, plot=False)


def test_without_matplotlib_the_plot_is_skipped_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    run = TrainingRun(QUICK, tmp_path, plot=True)
    run.iterate()
    run.iterate()
    warnings = [record for record in caplog.records if record.levelname == "WARNING"]
    assert len(warnings) == 1 and "matplotlib" in warnings[0].getMessage()
    assert len(MetricsLog(tmp_path / "metrics.csv").rows) == 2
    assert not (tmp_path / "metrics.png").exists()


def _fail(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt("killed")


@pytest.mark.parametrize(
    "write",
    [
        "agents.alphazero.replay.ReplayBuffer.save",
        "agents.alphazero.trainer.save_network",
        "agents.alphazero.metrics.MetricsLog.append",
        "agents.alphazero.run_files.write_text_atomically",
    ],
)
def test_a_kill_between_the_writes_of_an_iteration_resumes_consistently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: str
) -> None:
    run = TrainingRun(QUICK, tmp_path, plot=False)
    run.iterate()
    with monkeypatch.context() as patch:
        patch.setattr(write, _fail)
        with pytest.raises(KeyboardInterrupt):
            run.iterate()
    resumed = TrainingRun(QUICK, tmp_path, plot=False)
    assert resumed.progress.iteration == 1
    assert len(resumed.replay) == resumed.progress.samples
    resumed.iterate()
    rows = MetricsLog(tmp_path / "metrics.csv").rows
    assert [row["iteration"] for row in rows] == ["1", "2"]
    assert resumed.replay.total_added == resumed.progress.samples
    assert not list(tmp_path.glob(".*.tmp"))


def test_temporary_files_of_a_killed_write_are_removed_on_start(
    tmp_path: Path,
) -> None:
    TrainingRun(QUICK, tmp_path, plot=False).iterate()
    leftover = tmp_path / ".latest.pt.k1ll3d.tmp"
    leftover.write_bytes(b"half a checkpoint")
    TrainingRun(QUICK, tmp_path, plot=False)
    assert not leftover.exists()


def _replay_file(directory: Path) -> Path:
    (path,) = directory.glob("replay*.npz")
    return path


def test_a_truncated_replay_is_refused_naming_the_file(tmp_path: Path) -> None:
    TrainingRun(QUICK, tmp_path, plot=False).iterate()
    replay = _replay_file(tmp_path)
    replay.write_bytes(replay.read_bytes()[: replay.stat().st_size // 2])
    with pytest.raises(ValueError, match=f"cannot read replay buffer.*{replay.name}"):
        TrainingRun(QUICK, tmp_path, plot=False)


def test_a_deleted_replay_is_refused_naming_the_file(tmp_path: Path) -> None:
    TrainingRun(QUICK, tmp_path, plot=False).iterate()
    replay = _replay_file(tmp_path)
    replay.unlink()
    with pytest.raises(CheckpointError, match=f"{replay.name}.* is missing"):
        TrainingRun(QUICK, tmp_path, plot=False)


def test_a_file_in_place_of_the_run_folder_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run"
    path.write_text("not a folder")
    with pytest.raises(ValueError, match="not a folder"):
        TrainingRun(QUICK, path, plot=False)


def test_a_new_run_with_teacher_games_commits_the_distilled_network_first(
    tmp_path: Path,
) -> None:
    config = dataclasses.replace(
        QUICK, distillation=DistillationConfig(games=6, steps=3), snapshot_every=1
    )
    run = TrainingRun(config, tmp_path, plot=False)
    row = run.distil()
    assert run.progress.teacher_games == 6 and run.progress.teacher_steps == 3
    assert run.progress.iteration == 0 and run.learner.steps == 3
    assert "distilled 6 heuristic games" in row["note"]
    assert (tmp_path / "snapshots" / "iteration-000000.pt").is_file()
    run.iterate()
    assert (tmp_path / "snapshots" / "iteration-000001.pt").is_file()
    # A resumed run does not distil again: its counters say it already has.
    resumed = TrainingRun(config, tmp_path, plot=False)
    assert resumed.progress.teacher_games == 6
    assert not resumed._distillation_due()


def test_an_iteration_that_cannot_learn_yet_says_why(tmp_path: Path) -> None:
    config = dataclasses.replace(QUICK, min_replay=10_000, replay_capacity=10_000)
    row = TrainingRun(config, tmp_path, plot=False).iterate()
    assert "loss" not in row
    assert "no gradient steps yet" in row["note"]
    assert "learning starts at 10000 (--min-replay)" in row["note"]


def test_a_spent_budget_ends_the_run_after_one_whole_iteration(tmp_path: Path) -> None:
    """The CPU budget is checked between iterations, never inside one: a spent budget
    still plays its one iteration's games to the end (no game is cut at a clock,
    so the machine's load cannot change what a run plays), then the run stops."""
    config = dataclasses.replace(QUICK, cpu_hours=1e-9)
    run = TrainingRun(config, tmp_path, plot=False)
    rows: list[dict] = []
    progress = run.run(report=lambda _progress, row: rows.append(row))
    assert progress.iteration == 1
    assert progress.games == QUICK.self_play.parallel_games
    assert "unfinished" not in rows[0].get("note", "")
    assert progress.cpu_seconds > 0


def test_no_iteration_starts_when_less_than_half_of_the_last_one_is_left(
    tmp_path: Path,
) -> None:
    run = TrainingRun(dataclasses.replace(QUICK, cpu_hours=1.0), tmp_path, plot=False)
    run.progress.cpu_seconds = 3600 - 10
    run.last_iteration_cpu_seconds = 30.0
    assert run._next_would_overrun(3600)
    run.last_iteration_cpu_seconds = 15.0
    assert not run._next_would_overrun(3600)


def test_short_budgets_get_small_iterations_that_learn_at_once() -> None:
    two_minutes = budget_defaults(2 / 60)
    assert two_minutes == BudgetDefaults(parallel_games=8, min_replay=64)
    assert budget_defaults(0.25) == BudgetDefaults(parallel_games=32, min_replay=64)
    assert budget_defaults(4.0) == BudgetDefaults(parallel_games=64, min_replay=2_000)


def test_a_manifest_naming_more_metrics_rows_than_exist_is_refused(
    tmp_path: Path,
) -> None:
    TrainingRun(QUICK, tmp_path, plot=False).iterate()
    manifest = tmp_path / "manifest.json"
    committed = json.loads(manifest.read_text("utf-8"))
    assert committed["metrics_rows"] == 1
    manifest.write_text(json.dumps({**committed, "metrics_rows": 5}), "utf-8")
    with pytest.raises(
        CheckpointError, match=r"commits 5 metrics rows but .*metrics\.csv.* only 1"
    ):
        TrainingRun(QUICK, tmp_path, plot=False)
    for bad in (-1, "2", 1.5):
        manifest.write_text(json.dumps({**committed, "metrics_rows": bad}), "utf-8")
        with pytest.raises(CheckpointError, match="metrics_rows must be a whole"):
            TrainingRun(QUICK, tmp_path, plot=False)
    manifest.write_text(json.dumps({**committed, "replay": "../elsewhere.npz"}))
    with pytest.raises(CheckpointError, match="not a file name in the run's folder"):
        TrainingRun(QUICK, tmp_path, plot=False)
