"""Weights files: the round trip, and clear errors for every kind of bad file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents.alphazero.checkpoint import CheckpointError, load_network, save_network
from agents.alphazero.network import NetworkConfig, PolicyValueNet, planes_to_tensor
from tests.agents.alphazero.test_network import TINY, random_batch


@pytest.fixture
def saved(tmp_path: Path) -> tuple[PolicyValueNet, Path]:
    torch.manual_seed(0)
    network = PolicyValueNet(TINY).eval()
    path = tmp_path / "net.pt"
    save_network(network, path, metadata={"games": 12})
    return network, path


def test_round_trip_gives_the_same_outputs(saved: tuple[PolicyValueNet, Path]) -> None:
    network, path = saved
    loaded, metadata = load_network(path)
    assert loaded.config == TINY and metadata == {"games": 12}
    planes = planes_to_tensor(random_batch(9, 3, seed=0).planes)
    with torch.no_grad():
        for expected, actual in zip(network(planes), loaded(planes), strict=True):
            torch.testing.assert_close(actual, expected)
    assert not list(path.parent.glob(".*tmp")), "the temporary file was left behind"


def test_truncated_file(saved: tuple[PolicyValueNet, Path]) -> None:
    _, path = saved
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(CheckpointError, match="truncated or corrupt"):
        load_network(path)


def test_corrupt_file(saved: tuple[PolicyValueNet, Path]) -> None:
    _, path = saved
    data = bytearray(path.read_bytes())
    data[:64] = np.random.default_rng(0).integers(0, 256, 64, dtype=np.uint8).tobytes()
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="truncated or corrupt"):
        load_network(path)


def test_file_that_is_not_ours(tmp_path: Path) -> None:
    path = tmp_path / "other.pt"
    torch.save({"state_dict": {}}, path)
    with pytest.raises(
        CheckpointError, match="not a gomoku_env AlphaZero weights file"
    ):
        load_network(path)


def test_weights_of_another_shape(saved: tuple[PolicyValueNet, Path]) -> None:
    _, path = saved
    payload = torch.load(path, weights_only=True)
    payload["network_config"] = NetworkConfig(channels=24, blocks=1).to_dict()
    torch.save(payload, path)
    with pytest.raises(CheckpointError, match="do not fit a network of"):
        load_network(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no weights file"):
        load_network(tmp_path / "absent.pt")
