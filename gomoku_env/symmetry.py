"""The 8 symmetries of the square board (4 rotations, each optionally mirrored).

Symmetry ``s`` is given as a permutation of cell indices: ``cells[permutation]`` is the
transformed board. The same permutation maps policy targets, so data augmentation moves
planes and visit distributions together.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

SYMMETRY_COUNT = 8


@lru_cache(maxsize=32)
def symmetry_permutations(board_size: int) -> np.ndarray:
    """A read-only (8, size*size) array: row s gathers the cells of symmetry s.

    Row 0 is the identity; rows 1-3 rotate by 90°, 180°, 270°; rows 4-7 are rows 0-3
    mirrored left to right.
    """
    grid = np.arange(board_size * board_size).reshape(board_size, board_size)
    rows = []
    for mirrored in (False, True):
        base = np.fliplr(grid) if mirrored else grid
        rows.extend(np.rot90(base, turns).ravel() for turns in range(4))
    permutations = np.stack(rows)
    permutations.flags.writeable = False
    return permutations


@lru_cache(maxsize=32)
def inverse_permutations(board_size: int) -> np.ndarray:
    """Row s sends an action on the original board to its place on the transformed one."""
    forward = symmetry_permutations(board_size)
    inverse = np.empty_like(forward)
    columns = np.arange(forward.shape[1])
    for symmetry in range(SYMMETRY_COUNT):
        inverse[symmetry, forward[symmetry]] = columns
    inverse.flags.writeable = False
    return inverse


def transform_cells(cells: np.ndarray, board_size: int, symmetry: int) -> np.ndarray:
    """Flat per-cell values (cells, a policy, a mask) under ``symmetry``."""
    return cells[..., symmetry_permutations(board_size)[symmetry]]


def transform_action(action: int, board_size: int, symmetry: int) -> int:
    """Where ``action`` lands under ``symmetry``."""
    return int(inverse_permutations(board_size)[symmetry, action])


def transform_planes(planes: np.ndarray, symmetry: int) -> np.ndarray:
    """Channels-last planes (..., H, W, C) under ``symmetry``."""
    size = planes.shape[-2]
    flat = planes.reshape(*planes.shape[:-3], size * size, planes.shape[-1])
    moved = flat[..., symmetry_permutations(size)[symmetry], :]
    return moved.reshape(planes.shape)
