"""Weights files: the round trip, and clear errors for every kind of bad file."""

from __future__ import annotations

import dataclasses
import fractions
import os
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.alphazero.checkpoint import (
    CheckpointError,
    bundled_names,
    load_network,
    resolve_weights,
    save_network,
)
from agents.alphazero.network import PolicyValueNet, planes_to_tensor
from agents.alphazero.training_config import NetworkConfig
from gomoku_env.planes import PLANE_COUNT
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
    with pytest.raises(FileNotFoundError, match=r"absent\.pt: no such file"):
        load_network(tmp_path / "absent.pt")


def test_a_device_or_fifo_as_weights_is_refused_before_torch_reads_it(
    tmp_path: Path,
) -> None:
    device = tmp_path / "zero.pt"
    device.symlink_to("/dev/zero")
    fifo = tmp_path / "pipe.pt"
    os.mkfifo(fifo)
    for path in (device, fifo):
        with pytest.raises(CheckpointError, match=f"{path.name}: is not a regular"):
            load_network(path)


def _rewrite(path: Path, **changes: object) -> None:
    payload = torch.load(path, weights_only=True)
    payload.update(changes)
    torch.save(payload, path)


def test_non_finite_weights_are_refused(saved: tuple[PolicyValueNet, Path]) -> None:
    network, path = saved
    state = network.state_dict()
    state["stem.0.weight"][0, 0, 0, 0] = float("nan")
    _rewrite(path, state_dict=state)
    with pytest.raises(CheckpointError, match=r"net\.pt.*stem\.0\.weight.*not finite"):
        load_network(path)


def test_a_network_for_another_plane_count_is_refused_naming_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.pt"
    save_network(PolicyValueNet(dataclasses.replace(TINY, input_planes=3)), path)
    with pytest.raises(CheckpointError, match=r"old\.pt.* reads 3 observation planes"):
        load_network(path)


def test_a_claimed_huge_network_is_refused_before_allocating(
    saved: tuple[PolicyValueNet, Path],
) -> None:
    _, path = saved
    claimed = {**TINY.to_dict(), "channels": 1024, "blocks": 64}  # in bounds, huge
    _rewrite(path, network_config=claimed)
    with pytest.raises(CheckpointError, match="do not fit a network of"):
        load_network(path)


def test_a_file_with_other_objects_gets_no_unsafe_advice(tmp_path: Path) -> None:
    path = tmp_path / "pickled.pt"
    torch.save({"format": "gomoku_env.alphazero", "x": fractions.Fraction(1, 3)}, path)
    with pytest.raises(CheckpointError, match=r"pickled\.pt") as caught:
        load_network(path)
    assert "weights_only" not in str(caught.value)


def test_the_shipped_networks_still_load() -> None:
    for name in bundled_names():
        network, _ = load_network(resolve_weights(name))
        assert network.config.input_planes == PLANE_COUNT


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "the file is empty"),
        (bytes(range(256)) * 4, "it is truncated or corrupt"),
        (b"PK\x03\x04" + bytes(200), "it is truncated or corrupt (PytorchStreamReader"),
        (b"just some text\n", "it is truncated or corrupt"),
    ],
)
def test_a_damaged_file_is_named_with_what_to_do_and_no_unsafe_advice(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "broken-weights.pt"
    path.write_bytes(content)
    with pytest.raises(CheckpointError) as caught:
        load_network(path)
    message = str(caught.value)
    assert message.startswith(
        f"{str(path)!r} is not a valid gomoku_env AlphaZero weights file: {reason}"
    )
    assert "gomoku train --export" in message and "9x9" in message
    assert "weights_only" not in message and "\n" not in message
    assert "internal miniz error" not in message  # torch's own paragraph is cut


def test_a_torch_file_of_something_else_says_so(tmp_path: Path) -> None:
    path = tmp_path / "tensors.pt"
    torch.save({"a": torch.zeros(2)}, path)
    with pytest.raises(CheckpointError, match=r"tensors\.pt.*not one that save_net"):
        load_network(path)


def test_a_compression_bomb_is_refused_before_it_inflates(tmp_path: Path) -> None:
    """A small deflated file that would unpack to 100 MiB (torch.save stores its
    members uncompressed, so real weights unpack to about their size)."""
    import zipfile

    path = tmp_path / "bomb.pt"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb/data/0", bytes(100 * 1024 * 1024))
    assert path.stat().st_size < 1024 * 1024
    with pytest.raises(CheckpointError, match="would unpack to 104,857,600 bytes"):
        load_network(path)


def test_a_network_claiming_a_huge_shape_is_refused_before_it_is_built(
    saved: tuple[PolicyValueNet, Path], tmp_path: Path
) -> None:
    """A 1.4 KB file claiming 20,000 blocks cost 15-25 s and 0.5 GB before."""
    import time

    with pytest.raises(ValueError, match="blocks must be an int"):
        NetworkConfig(blocks=20_000)
    _, path = saved
    payload = torch.load(path, weights_only=True)
    payload["network_config"] = {**payload["network_config"], "blocks": 20_000}
    claimed = tmp_path / "claimed.pt"
    torch.save(payload, claimed)
    started = time.process_time()
    with pytest.raises(CheckpointError, match=r"bad network config: .*blocks must be"):
        load_network(claimed)
    assert time.process_time() - started < 5  # counted CPU time, wide margin
