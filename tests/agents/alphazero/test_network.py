"""PolicyValueNet: one set of weights on any board, and it can fit a small batch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.alphazero.learner import Learner
from agents.alphazero.network import PolicyValueNet, planes_to_tensor
from agents.alphazero.replay import Batch
from agents.alphazero.training_config import LearnerConfig, NetworkConfig
from gomoku_env.planes import PLANE_COUNT

TINY = NetworkConfig(channels=16, blocks=1, value_hidden=16)


def random_batch(size: int, count: int, seed: int) -> Batch:
    """Positions with a few random stones, a random legal policy, a random outcome."""
    rng = np.random.default_rng(seed)
    planes = np.zeros((count, size, size, PLANE_COUNT), dtype=np.int8)
    policy = np.zeros((count, size * size), dtype=np.float32)
    for i in range(count):
        stones = rng.choice(size * size, 6, replace=False)
        planes[i].reshape(-1, PLANE_COUNT)[stones[:3], 0] = 1
        planes[i].reshape(-1, PLANE_COUNT)[stones[3:], 1] = 1
        planes[i, :, :, 3] = i % 2
        free = np.setdiff1d(np.arange(size * size), stones)
        policy[i, rng.choice(free, 2, replace=False)] = (0.75, 0.25)
    value = rng.choice([-1.0, 1.0], count).astype(np.float32)
    return Batch(planes, policy, value)


@pytest.mark.parametrize("size", [6, 9, 15])
def test_same_weights_run_on_any_board_size(size: int) -> None:
    torch.manual_seed(0)
    network = PolicyValueNet(TINY).eval()
    batch = random_batch(size, 3, seed=size)
    with torch.no_grad():
        logits, values = network(planes_to_tensor(batch.planes))
    assert logits.shape == (3, size * size)
    assert values.shape == (3,)
    assert torch.all(values.abs() <= 1)


def test_network_overfits_a_tiny_batch() -> None:
    torch.manual_seed(0)
    batch = random_batch(6, 8, seed=1)
    learner = Learner(PolicyValueNet(TINY), LearnerConfig(learning_rate=1e-2))
    first = learner.step(batch)
    for _ in range(100):
        last = learner.step(batch)
    # The targets' own entropy (0.56 nats) is the floor of the policy loss.
    assert last.policy < 0.7 < first.policy
    assert last.value < 0.05 < first.value


def test_wrong_plane_count_is_a_clear_error() -> None:
    network = PolicyValueNet(TINY)
    planes = np.zeros((1, 6, 6, PLANE_COUNT + 1), dtype=np.int8)
    with pytest.raises(
        ValueError,
        match=f"reads {PLANE_COUNT} observation planes, got input with {PLANE_COUNT + 1}",
    ):
        network(planes_to_tensor(planes))


@pytest.mark.parametrize(
    "field", ["channels", "blocks", "value_hidden", "input_planes"]
)
def test_bad_network_config_names_the_field(field: str) -> None:
    with pytest.raises(ValueError, match=f"NetworkConfig.{field} must be an int >= 1"):
        NetworkConfig(**{field: 0})
