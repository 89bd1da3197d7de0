"""The replay window: recent self-play samples, drawn with 8-fold symmetry augmentation.

A sample is (planes, visit distribution, outcome) for one position, from the point of
view of the side to move. Samples are stored once, as played; each draw applies one of
the board's 8 symmetries, chosen at random per sample, to the planes and the policy
target together (``gomoku_env.board`` moves both with the same permutation).

The buffer saves itself atomically to an ``.npz`` file so that a killed training run
resumes with every sample it had saved.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gomoku_env.board import SYMMETRY_COUNT, transform_cells, transform_planes
from gomoku_env.files import REPLAY_LIMIT, check_regular_file, write_atomically
from gomoku_env.planes import PLANE_COUNT


@dataclass(frozen=True)
class Batch:
    """Training inputs: planes (B, H, W, C) int8, policy (B, cells), value (B,)."""

    planes: np.ndarray
    policy: np.ndarray
    value: np.ndarray

    @property
    def masks(self) -> np.ndarray:
        """Legal cells of each sample: the empty points."""
        stones = self.planes[..., 0] + self.planes[..., 1]
        return (stones == 0).reshape(len(self.planes), -1).astype(np.int8)


def augment(batch: Batch, symmetries: np.ndarray) -> Batch:
    """``batch`` with sample i (planes and policy) moved by ``symmetries[i]``."""
    planes = np.empty_like(batch.planes)
    policy = np.empty_like(batch.policy)
    size = batch.planes.shape[1]
    for symmetry in range(SYMMETRY_COUNT):
        rows = np.flatnonzero(symmetries == symmetry)
        if rows.size:
            planes[rows] = transform_planes(batch.planes[rows], symmetry)
            policy[rows] = transform_cells(batch.policy[rows], size, symmetry)
    return Batch(planes, policy, batch.value.copy())


class ReplayBuffer:
    """A ring buffer of the ``capacity`` most recent samples for one board size."""

    def __init__(
        self, board_size: int, capacity: int, planes: int = PLANE_COUNT
    ) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity must be an int >= 1, got {capacity!r}")
        self.board_size = board_size
        self.capacity = capacity
        cells = board_size * board_size
        self._planes = np.zeros(
            (capacity, board_size, board_size, planes), dtype=np.int8
        )
        self._policy = np.zeros((capacity, cells), dtype=np.float32)
        self._value = np.zeros(capacity, dtype=np.float32)
        self.size = 0
        self.total_added = 0
        self._next_slot = 0

    def __len__(self) -> int:
        return self.size

    def add(self, planes: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        """Append samples (the oldest ones are dropped once the buffer is full)."""
        planes, policy, value = (
            np.asarray(planes),
            np.asarray(policy),
            np.asarray(value),
        )
        if (
            planes.shape[1:] != self._planes.shape[1:]
            or policy.shape[1:] != self._policy.shape[1:]
        ):
            raise ValueError(
                f"samples of shape {planes.shape[1:]} / {policy.shape[1:]} do not "
                f"fit a buffer of {self._planes.shape[1:]} / {self._policy.shape[1:]}"
            )
        self.total_added += len(planes)
        planes, policy, value = (
            planes[-self.capacity :],
            policy[-self.capacity :],
            value[-self.capacity :],
        )
        count = len(planes)
        slots = (self._next_slot + np.arange(count)) % self.capacity
        self._planes[slots] = planes
        self._policy[slots] = policy
        self._value[slots] = value
        self._next_slot = (self._next_slot + count) % self.capacity
        self.size = min(self.capacity, self.size + count)

    def sample(self, batch_size: int, rng: np.random.Generator) -> Batch:
        """``batch_size`` samples drawn uniformly, each under a random symmetry."""
        if self.size == 0:
            raise ValueError("cannot sample from an empty replay buffer")
        rows = rng.integers(0, self.size, size=batch_size)
        batch = Batch(self._planes[rows], self._policy[rows], self._value[rows])
        return augment(batch, rng.integers(0, SYMMETRY_COUNT, size=batch_size))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the buffer to ``path`` (.npz) atomically."""
        order = self._chronological_rows()

        def write(temporary: Path) -> None:
            # A stream, not the path: np.savez would append ".npz" to the name.
            with temporary.open("wb") as stream:
                np.savez(
                    stream,
                    planes=self._planes[order],
                    policy=self._policy[order],
                    value=self._value[order],
                    total_added=np.int64(self.total_added),
                )

        write_atomically(path, write, create_parents=True)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        capacity: int,
        board_size: int | None = None,
    ) -> ReplayBuffer:
        """A buffer of ``capacity`` holding the samples saved in ``path`` (of a
        ``board_size`` board, when given)."""
        check_regular_file(path, "a saved replay buffer", REPLAY_LIMIT)
        try:
            _check_array_sizes(Path(path))
            with np.load(path) as data:
                planes, policy, value = data["planes"], data["policy"], data["value"]
                total_added = int(data["total_added"])
        except (
            OSError, KeyError, ValueError, TypeError, EOFError, zipfile.BadZipFile
        ) as error:  # fmt: skip
            raise ValueError(
                f"cannot read replay buffer {str(path)!r}: {error}"
            ) from None
        _check_saved_shapes(path, planes, policy, value)
        if board_size is not None and planes.shape[1] != board_size:
            raise ValueError(
                f"replay buffer {str(path)!r} holds {planes.shape[1]}x"
                f"{planes.shape[1]} samples, not the run's {board_size}x{board_size}"
            )
        buffer = cls(planes.shape[1], capacity, planes.shape[3])
        buffer.add(planes[-capacity:], policy[-capacity:], value[-capacity:])
        buffer.total_added = max(total_added, buffer.total_added)
        return buffer

    def _chronological_rows(self) -> np.ndarray:
        """Slot indices of the stored samples, oldest first."""
        if self.size < self.capacity:
            return np.arange(self.size)
        return np.roll(np.arange(self.capacity), -self._next_slot)


def _check_array_sizes(path: Path) -> None:
    """A ValueError unless every array in the .npz at ``path`` holds no more bytes
    than its member of the archive stores: numpy allocates what an array's header
    claims before reading, so a small file could ask for terabytes."""
    with zipfile.ZipFile(path) as archive:
        for member in archive.infolist():
            with archive.open(member) as stream:
                version = np.lib.format.read_magic(stream)
                read_header = (
                    np.lib.format.read_array_header_1_0
                    if version == (1, 0)
                    else np.lib.format.read_array_header_2_0
                )
                shape, _, dtype = read_header(stream)
            claimed = int(np.prod(shape, dtype=object)) * dtype.itemsize
            if claimed > member.file_size:
                raise ValueError(
                    f"{member.filename} claims {claimed:,} bytes in a member of "
                    f"{member.file_size:,}"
                )


def _check_saved_shapes(
    path: str | os.PathLike[str],
    planes: np.ndarray,
    policy: np.ndarray,
    value: np.ndarray,
) -> None:
    """ValueError naming ``path`` unless its arrays are samples of one board: planes
    (n, N, N, C), policy (n, N*N), value (n,) (a file of another shape gave an
    IndexError from deep inside the buffer)."""
    fits = (
        planes.ndim == 4
        and planes.shape[1] == planes.shape[2]
        and policy.shape == (len(planes), planes.shape[1] ** 2)
        and value.shape == (len(planes),)
    )
    if not fits:
        raise ValueError(
            f"replay buffer {str(path)!r} holds planes {planes.shape}, policy "
            f"{policy.shape} and value {value.shape}: not samples of one board "
            "(planes (n, N, N, C), policy (n, N*N), value (n,))"
        )
