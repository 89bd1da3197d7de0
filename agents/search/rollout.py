"""Random rollouts: play a position out with uniformly random moves.

Every legal point is a candidate, or (with a candidate ``distance`` > 0) only points
within that distance of a stone, the list growing as stones land. Each move is judged
by :func:`gomoku_env.kernels.place_and_judge`, so all rules score rollouts the same way
as real games.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.search.position_kernels import is_legal_point, opponent, play_and_judge
from agents.search.rng import random_below
from gomoku_env.kernels import EMPTY


@njit(cache=True, nogil=True)
def pick_legal(
    points: np.ndarray,
    count: int,
    cells: np.ndarray,
    game: np.ndarray,
    color: int,
    rng: np.ndarray,
) -> int:
    """Index in ``points[:count]`` of a random point legal for ``color``; -1 if none."""
    for _ in range(4):
        index = random_below(rng, count)
        if is_legal_point(cells, game[0], game[2], points[index], color):
            return index
    start = random_below(rng, count)
    for step in range(count):
        index = (start + step) % count
        if is_legal_point(cells, game[0], game[2], points[index], color):
            return index
    return -1


@njit(cache=True, nogil=True)
def add_neighbours(
    cells: np.ndarray,
    size: int,
    action: int,
    distance: int,
    listed: np.ndarray,
    points: np.ndarray,
    count: int,
) -> int:
    """Append the empty unlisted points within ``distance`` of ``action``; new count."""
    row, col = action // size, action % size
    for r in range(max(0, row - distance), min(size, row + distance + 1)):
        for c in range(max(0, col - distance), min(size, col + distance + 1)):
            point = r * size + c
            if cells[point] == EMPTY and not listed[point]:
                listed[point] = 1
                points[count] = point
                count += 1
    return count


@njit(cache=True, nogil=True)
def initial_points(
    cells: np.ndarray,
    size: int,
    distance: int,
    stones: int,
    listed: np.ndarray,
    points: np.ndarray,
) -> int:
    """The starting candidate list of a rollout; returns its length."""
    count = 0
    if distance <= 0 or stones == 0:
        for point in range(cells.size):
            if cells[point] == EMPTY:
                listed[point] = 1
                points[count] = point
                count += 1
        return count
    for action in range(cells.size):
        if cells[action] != EMPTY:
            count = add_neighbours(cells, size, action, distance, listed, points, count)
    return count


@njit(cache=True, nogil=True)
def rollout(
    cells: np.ndarray, game: np.ndarray, to_move: int, stones: int, rng: np.ndarray
) -> int:
    """Play ``cells`` out at random (modifying it); the winner's colour, 0 for a draw.

    ``game`` holds (size, win_length, rule_code, distance, ...).
    """
    size, distance = game[0], game[3]
    listed = np.zeros(cells.size, dtype=np.int8)
    points = np.empty(cells.size, dtype=np.int32)
    count = initial_points(cells, size, distance, stones, listed, points)
    color = to_move
    while count > 0:
        index = pick_legal(points, count, cells, game, color, rng)
        if index < 0:
            return 0
        action = points[index]
        count -= 1
        points[index] = points[count]
        if play_and_judge(cells, size, game[1], game[2], action, color):
            return color
        if distance > 0:
            count = add_neighbours(cells, size, action, distance, listed, points, count)
        color = opponent(color)
    return 0
