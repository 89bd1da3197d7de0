"""The training loop: files each iteration, resume after a kill, clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents.alphazero.checkpoint import CheckpointError
from agents.alphazero.metrics import MetricsLog
from agents.alphazero.trainer import TrainingRun, learning_rate_at
from agents.alphazero.training_config import SelfPlayConfig, TrainingConfig
from gomoku_env.config import GameConfig
from tests.agents.alphazero.test_network import TINY

QUICK = TrainingConfig(
    game=GameConfig(6, 4),
    network=TINY,
    self_play=SelfPlayConfig(
        parallel_games=4, simulations=8, fast_simulations=4, leaves_per_round=2
    ),
    replay_capacity=500,
    batch_size=16,
    min_replay=8,
    evaluation_every=0,
    hours=1.0,
    seed=3,
)


def test_a_killed_run_resumes_with_its_weights_counters_and_replay(
    tmp_path: Path,
) -> None:
    run = TrainingRun(QUICK, tmp_path, plot=False)
    run.iterate()
    run.iterate()
    assert {"latest.pt", "replay.npz", "metrics.csv"} <= {
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
    with pytest.raises(CheckpointError, match="is a 6×6 run; this run is 7×7"):
        TrainingRun(other, tmp_path)


def test_learning_rate_schedule_steps_down() -> None:
    rates = [learning_rate_at(1.0, fraction) for fraction in np.linspace(0, 1, 11)]
    assert rates[0] == 1.0 and rates[-1] == pytest.approx(0.1)
    assert rates == sorted(rates, reverse=True)


def test_bad_training_settings_name_the_value() -> None:
    with pytest.raises(ValueError, match=r"SelfPlayConfig\.simulations must be"):
        SelfPlayConfig(simulations=0)
    with pytest.raises(ValueError, match="dirichlet_fraction must be in"):
        SelfPlayConfig(dirichlet_fraction=1.5)
    with pytest.raises(ValueError, match=r"TrainingConfig\.batch_size must be"):
        TrainingConfig(batch_size=0)
