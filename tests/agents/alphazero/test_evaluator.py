"""NetworkEvaluator: masked priors, values in range, cache hits equal fresh answers."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.alphazero.evaluator import (
    NetworkEvaluator,
    configure_threads,
    default_threads,
)
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.training_config import NetworkConfig
from gomoku_env import GameConfig
from tests.agents.alphazero.test_network import TINY, random_batch


@pytest.fixture
def evaluator() -> NetworkEvaluator:
    torch.manual_seed(0)
    return NetworkEvaluator(PolicyValueNet(TINY), cache_size=16)


def test_priors_are_a_distribution_over_legal_cells(
    evaluator: NetworkEvaluator,
) -> None:
    batch = random_batch(7, 5, seed=3)
    priors, values = evaluator.evaluate(batch.planes, batch.masks)
    assert priors.shape == (5, 49) and priors.dtype == np.float32
    assert np.all(priors[batch.masks == 0] == 0)
    assert np.all(priors[batch.masks == 1] > 0)
    np.testing.assert_allclose(priors.sum(axis=1), 1.0, rtol=1e-5)
    assert values.shape == (5,) and np.all(np.abs(values) <= 1)


def test_cache_answers_repeated_positions_without_the_network(
    evaluator: NetworkEvaluator,
) -> None:
    batch = random_batch(7, 4, seed=4)
    fresh = evaluator.evaluate(batch.planes, batch.masks)
    repeated = evaluator.evaluate(batch.planes[::-1], batch.masks[::-1])
    np.testing.assert_array_equal(repeated[0], fresh[0][::-1])
    np.testing.assert_array_equal(repeated[1], fresh[1][::-1])
    assert evaluator.evaluations == 4 and evaluator.cache_hits == 4


def test_cache_is_bounded() -> None:
    evaluator = NetworkEvaluator(PolicyValueNet(TINY), cache_size=3)
    batch = random_batch(6, 5, seed=5)
    evaluator.evaluate(batch.planes, batch.masks)
    assert len(evaluator._cache) == 3


def test_bad_shapes_and_options_are_clear_errors(evaluator: NetworkEvaluator) -> None:
    batch = random_batch(6, 2, seed=6)
    with pytest.raises(ValueError, match="expected planes"):
        evaluator.evaluate(batch.planes, batch.masks[:, :10])
    with pytest.raises(ValueError, match="cache_size must be an int >= 0, got -1"):
        NetworkEvaluator(PolicyValueNet(NetworkConfig()), cache_size=-1)
    with pytest.raises(ValueError, match="threads must be an int >= 1, got 0"):
        configure_threads(0)


@pytest.mark.parametrize(
    ("share", "cpus", "threads"),
    [("1", 8, 1), ("4", 8, 2), (None, 8, 2), (None, 1, 1), ("many", 1, 1), ("0", 8, 2)],
)
def test_default_threads_keep_to_the_process_share(
    monkeypatch: pytest.MonkeyPatch, share: str | None, cpus: int, threads: int
) -> None:
    if share is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", share)
    monkeypatch.setattr("os.cpu_count", lambda: cpus)
    assert default_threads() == threads


def test_an_alphazero_agent_uses_one_torch_thread_unless_told(monkeypatch) -> None:
    """Two threads a process on shared cores starved clock searches to one
    simulation a move; the agent takes one unless asked for more."""
    from agents.alphazero.agent import AlphaZeroAgent

    monkeypatch.setattr(torch, "get_num_threads", lambda: 4)
    asked: list[int] = []
    monkeypatch.setattr(torch, "set_num_threads", asked.append)
    AlphaZeroAgent(GameConfig(board_size=9), weights="9x9")
    AlphaZeroAgent(GameConfig(board_size=9), weights="9x9", threads=3)
    assert asked == [1, 3]
