"""Replay window: augmentation moves policy targets with the planes; save, resume."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.alphazero.replay import Batch, ReplayBuffer, augment
from gomoku_env.board import SYMMETRY_COUNT
from gomoku_env.planes import PLANE_COUNT


def marked_samples(size: int, count: int, seed: int) -> Batch:
    """Policy target on the sample's single own stone; value = the sample index."""
    rng = np.random.default_rng(seed)
    planes = np.zeros((count, size, size, PLANE_COUNT), dtype=np.int8)
    policy = np.zeros((count, size * size), dtype=np.float32)
    for i, cell in enumerate(rng.integers(0, size * size, count)):
        planes[i].reshape(-1, PLANE_COUNT)[cell, 0] = 1
        policy[i, cell] = 1.0
    return Batch(planes, policy, np.arange(count, dtype=np.float32))


def test_augmentation_maps_policy_targets_with_the_planes() -> None:
    size = 7
    batch = marked_samples(size, 40, seed=0)
    symmetries = np.arange(40) % SYMMETRY_COUNT
    moved = augment(batch, symmetries)
    stones = moved.planes[..., 0].reshape(40, -1)
    np.testing.assert_array_equal(stones.argmax(axis=1), moved.policy.argmax(axis=1))
    # Off-centre stones really move under the non-identity symmetries.
    changed = batch.policy.argmax(axis=1) != moved.policy.argmax(axis=1)
    assert changed[symmetries != 0].mean() > 0.5
    assert not changed[symmetries == 0].any()


def test_sampled_batches_keep_targets_with_planes() -> None:
    buffer = ReplayBuffer(board_size=6, capacity=64)
    samples = marked_samples(6, 30, seed=1)
    buffer.add(samples.planes, samples.policy, samples.value)
    drawn = buffer.sample(200, np.random.default_rng(2))
    stones = drawn.planes[..., 0].reshape(200, -1)
    np.testing.assert_array_equal(stones.argmax(axis=1), drawn.policy.argmax(axis=1))
    assert drawn.masks.sum(axis=1).tolist() == [35] * 200


def test_ring_buffer_keeps_the_newest_samples() -> None:
    buffer = ReplayBuffer(board_size=5, capacity=10)
    samples = marked_samples(5, 25, seed=2)
    for start in range(0, 25, 7):
        stop = min(25, start + 7)
        buffer.add(
            samples.planes[start:stop],
            samples.policy[start:stop],
            samples.value[start:stop],
        )
    assert len(buffer) == 10 and buffer.total_added == 25
    assert sorted(buffer._value.tolist()) == list(range(15, 25))


def test_save_and_load_resume_in_order(tmp_path: Path) -> None:
    buffer = ReplayBuffer(board_size=5, capacity=10)
    samples = marked_samples(5, 13, seed=3)
    buffer.add(samples.planes, samples.policy, samples.value)
    buffer.save(tmp_path / "replay.npz")
    loaded = ReplayBuffer.load(tmp_path / "replay.npz", capacity=10)
    assert loaded.total_added == 13 and len(loaded) == 10
    more = marked_samples(5, 3, seed=4)
    loaded.add(more.planes, more.policy, more.value + 100)
    assert sorted(loaded._value.tolist()) == [*range(6, 13), 100, 101, 102]


def test_bad_replay_file_and_shapes(tmp_path: Path) -> None:
    (tmp_path / "bad.npz").write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="cannot read replay buffer"):
        ReplayBuffer.load(tmp_path / "bad.npz", capacity=10)
    buffer = ReplayBuffer(board_size=5, capacity=10)
    other = marked_samples(6, 2, seed=5)
    with pytest.raises(ValueError, match="do not fit a buffer"):
        buffer.add(other.planes, other.policy, other.value)


@pytest.mark.parametrize(
    ("planes", "policy", "value"),
    [
        ((4, 5, 5, PLANE_COUNT), (4, 24), (4,)),  # policy of another board
        ((4, 5, 6, PLANE_COUNT), (4, 30), (4,)),  # not square
        ((4, 25, PLANE_COUNT), (4, 25), (4,)),  # planes of another rank
        ((4, 5, 5, PLANE_COUNT), (4, 25), (3,)),  # values of other samples
    ],
)
def test_a_replay_file_of_the_wrong_shape_is_one_clear_error(
    tmp_path: Path, planes, policy, value
) -> None:
    """Such a file gave an IndexError traceback from inside the buffer."""
    path = tmp_path / "replay-000001.npz"
    np.savez(
        path,
        planes=np.zeros(planes, np.int8),
        policy=np.zeros(policy, np.float32),
        value=np.zeros(value, np.float32),
        total_added=4,
    )
    with pytest.raises(ValueError, match="not samples of one board"):
        ReplayBuffer.load(path, capacity=10)


def test_an_array_header_claiming_more_than_its_file_is_refused_unread(
    tmp_path: Path,
) -> None:
    """numpy allocates what a header claims before it reads: a 1 kB file whose planes
    claim 10**12 samples is refused before any array is made."""
    import io
    import zipfile

    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "|i1", "fortran_order": False, "shape": (10**12, 9, 9, 5)}
    )
    path = tmp_path / "forged.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("planes.npy", header.getvalue())  # the header, no data
    with pytest.raises(
        ValueError, match=r"planes.npy claims 405,000,000,000,000 bytes"
    ):
        ReplayBuffer.load(path, capacity=10)


def test_a_replay_of_another_board_is_refused_naming_both(tmp_path: Path) -> None:
    buffer = ReplayBuffer(board_size=5, capacity=10)
    samples = marked_samples(5, 3, seed=1)
    buffer.add(samples.planes, samples.policy, samples.value)
    buffer.save(tmp_path / "replay.npz")
    with pytest.raises(ValueError, match="holds 5x5 samples, not the run's 9x9"):
        ReplayBuffer.load(tmp_path / "replay.npz", capacity=10, board_size=9)
    assert len(ReplayBuffer.load(tmp_path / "replay.npz", 10, board_size=5)) == 3
