"""Rollouts, how a tree values its leaves without an evaluator: play a
position out with random moves; a tactical rollout first takes its own win in one, else
blocks the opponent's (the threats are tracked as stones land). The rollout's ``cells``
are scratch: under renju they follow the game, for the legality hook.

Every legal point is a candidate, or (with a candidate ``distance`` > 0) only points
within that distance of a stone, the list growing as stones land. The rollout plays on
a copy of the board inside a border of WALL cells, so line scans need no bounds checks
and points are plain indices. A new stone is judged by the rules' own
:func:`gomoku_env.kernels.judge_stone` (as a ``walled`` board of width ``stride``, whose
walls stop every line), so every rule scores rollouts the same way as real games.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.search.arrays import random_below
from agents.search.position_kernels import is_legal_point, winning_points
from agents.search.settings import TACTICAL_ROLLOUT, SearchSettings
from gomoku_env.kernels import EMPTY, RENJU, judge_stone, other_color, wins_with_run

WALL = 3  # the border of a padded board: never a player's colour, never empty


@njit(cache=True, nogil=True)
def padded_board(
    cells: np.ndarray, size: int, pad: int
) -> tuple[np.ndarray, np.ndarray]:
    """``cells`` inside a border of ``pad`` WALL cells, and its empty points (as
    indices of the padded board)."""
    stride = size + 2 * pad
    board = np.full(stride * stride, WALL, dtype=np.int8)
    points = np.empty(cells.size, dtype=np.int32)
    count = 0
    for row in range(size):
        base = (row + pad) * stride + pad
        for col in range(size):
            board[base + col] = cells[row * size + col]
            if cells[row * size + col] == EMPTY:
                points[count] = base + col
                count += 1
    return board, points[:count]


@njit(cache=True, nogil=True, inline="always")
def run_side(board: np.ndarray, point: int, step: int, color: int) -> int:
    """Stones of ``color`` next to ``point`` going along ``step`` (walls stop it)."""
    count = 0
    point += step
    while board[point] == color:
        count += 1
        point += step
    return count


@njit(cache=True, nogil=True)
def near_points(
    board: np.ndarray, stride: int, distance: int, empties: np.ndarray,
    listed: np.ndarray, points: np.ndarray,
) -> int:  # fmt: skip
    """List the ``empties`` within ``distance`` of a stone into ``points`` (all of them
    when there is no stone); mark them in ``listed``; returns the count."""
    count = 0
    for point in empties:
        near = False
        for d_row in range(-distance, distance + 1):
            for d_col in range(-distance, distance + 1):
                value = board[point + d_row * stride + d_col]
                near |= value != EMPTY and value != WALL
        if near:
            listed[point] = 1
            points[count] = point
            count += 1
    if count == 0:
        for point in empties:
            listed[point] = 1
            points[count] = point
            count += 1
    return count


@njit(cache=True, nogil=True)
def add_neighbours(
    board: np.ndarray, stride: int, point: int, distance: int, listed: np.ndarray,
    points: np.ndarray, count: int,
) -> int:  # fmt: skip
    """Append the empty, unlisted points within ``distance`` of ``point``; new count."""
    for d_row in range(-distance, distance + 1):
        for d_col in range(-distance, distance + 1):
            other = point + d_row * stride + d_col
            if board[other] == EMPTY and not listed[other]:
                listed[other] = 1
                points[count] = other
                count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def action_of(point: int, stride: int, pad: int, size: int) -> int:
    """The board action of a padded-board point."""
    return (point // stride - pad) * size + point % stride - pad


@njit(cache=True, nogil=True)
def pick_legal(
    cells: np.ndarray, points: np.ndarray, count: int, pad: int,
    settings: SearchSettings, color: int, rng: np.ndarray,
) -> int:  # fmt: skip
    """Index in ``points[:count]`` of a random point legal for ``color`` on ``cells``
    (the unpadded board, kept in step under rules with forbidden points); -1 if none."""
    size, rule_code = settings.board_size, settings.rule_code
    stride = size + 2 * pad
    start = random_below(rng, count)
    for step in range(count):
        index = (start + step) % count
        action = action_of(points[index], stride, pad, size)
        if is_legal_point(cells, size, rule_code, action, color):
            return index
    return -1


@njit(cache=True, nogil=True)
def judge_and_find_threats(
    board: np.ndarray, point: int, stride: int, win_length: int, rule_code: int,
    color: int, threats: np.ndarray, counts: np.ndarray,
) -> bool:  # fmt: skip
    """Whether the ``color`` stone on ``point`` wins; if not, append to ``threats``
    the points where ``color`` could now win at once through lines of ``point``.

    Such a point must touch the line of stones through ``point``: one of the two
    cells just past its ends, where the line joins whatever lies beyond.
    """
    row = color - 1
    for step in (1, stride, stride + 1, stride - 1):
        before = run_side(board, point, -step, color)
        after = run_side(board, point, step, color)
        if wins_with_run(1 + before + after, win_length, rule_code, color):
            return True
        for end, away in (
            (point - (before + 1) * step, -step),
            (point + (after + 1) * step, step),
        ):
            if counts[row] == threats.shape[1] or board[end] != EMPTY:
                continue
            run = 2 + before + after + run_side(board, end, away, color)
            if wins_with_run(run, win_length, rule_code, color):
                threats[row, counts[row]] = end
                counts[row] += 1
    return False


@njit(cache=True, nogil=True)
def live_threat(
    board: np.ndarray, threats: np.ndarray, counts: np.ndarray, color: int
) -> int:
    """A still-empty threat point of ``color`` (dropping filled ones), or -1."""
    row = color - 1
    while counts[row] > 0:
        point = threats[row, counts[row] - 1]
        if board[point] == EMPTY:
            return point
        counts[row] -= 1
    return -1


@njit(cache=True, nogil=True)
def initial_threats(
    cells: np.ndarray, settings: SearchSettings, pad: int, threats: np.ndarray,
    counts: np.ndarray,
) -> None:  # fmt: skip
    """The wins in one already on the board, for both colours, as padded points."""
    size, win_length, rule_code = (
        settings.board_size, settings.win_length, settings.rule_code
    )  # fmt: skip
    stride = size + 2 * pad
    found = np.empty(cells.size, dtype=np.int32)
    for color in (1, 2):
        total = winning_points(cells, size, win_length, rule_code, color, found)
        counts[color - 1] = min(total, threats.shape[1])
        for k in range(counts[color - 1]):
            action = found[k]
            threats[color - 1, k] = (
                (action // size + pad) * stride + action % size + pad
            )


@njit(cache=True, nogil=True, inline="always")
def starting_points(
    cells: np.ndarray, size: int, pad: int, distance: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The padded board, its candidate points (the first ``count`` of them), the
    marks of the points already listed (with a candidate ``distance``), ``count``."""
    board, points = padded_board(cells, size, pad)
    count = points.size
    listed = np.zeros(board.size if distance > 0 else 0, dtype=np.int8)
    if distance > 0:
        stride = size + 2 * pad
        count = near_points(board, stride, distance, points.copy(), listed, points)
    return board, points, listed, count


@njit(cache=True, nogil=True, inline="always")
def starting_threats(
    cells: np.ndarray, settings: SearchSettings, pad: int, tactical: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The wins in one of both colours that a tactical rollout tracks (none for a
    random rollout), and their counts."""
    threats = np.empty((2, 32 if tactical else 0), dtype=np.int32)
    counts = np.zeros(2, dtype=np.int64)
    if tactical:
        initial_threats(cells, settings, pad, threats, counts)
    return threats, counts


@njit(cache=True, nogil=True)
def rollout(
    cells: np.ndarray, settings: SearchSettings, color: int, rng: np.ndarray
) -> int:
    """Play ``cells`` out, ``color`` first; the winner's colour, 0 for a draw."""
    tactical = settings.rollout_code == TACTICAL_ROLLOUT
    size, win_length = settings.board_size, settings.win_length
    rule_code, distance = settings.rule_code, settings.distance
    pad = max(win_length, distance)
    stride = size + 2 * pad
    board, points, seen, count = starting_points(cells, size, pad, distance)
    threats, counts = starting_threats(cells, settings, pad, tactical)
    while count > 0:
        point = -1
        if tactical:
            point = tactical_point(cells, board, threats, counts, pad, settings, color)
        if point >= 0:
            count = remove_point(points, count, point)
        else:
            index = random_below(rng, count)
            if rule_code == RENJU:
                index = pick_legal(cells, points, count, pad, settings, color, rng)
                if index < 0:
                    return 0
            point = points[index]
            count -= 1
            points[index] = points[count]
        board[point] = color
        if rule_code == RENJU:
            cells[action_of(point, stride, pad, size)] = color
        if not tactical:
            line = judge_stone(
                board, 0, stride, win_length, rule_code, point, color, walled=True
            )
            if line >= 0:
                return color
        elif judge_and_find_threats(
            board, point, stride, win_length, rule_code, color, threats, counts
        ):
            return color
        if distance > 0:
            count = add_neighbours(board, stride, point, distance, seen, points, count)
        color = other_color(color)
    return 0


@njit(cache=True, nogil=True)
def remove_point(points: np.ndarray, count: int, point: int) -> int:
    """Remove ``point`` from ``points[:count]`` if listed; the new count."""
    for index in range(count):
        if points[index] == point:
            points[index] = points[count - 1]
            return count - 1
    return count


@njit(cache=True, nogil=True)
def tactical_point(
    cells: np.ndarray, board: np.ndarray, threats: np.ndarray, counts: np.ndarray,
    pad: int, settings: SearchSettings, color: int,
) -> int:  # fmt: skip
    """The point a tactical rollout must play: its own win in one, else a block of the
    opponent's (if legal for ``color``); -1 when neither."""
    point = live_threat(board, threats, counts, color)
    if point < 0:
        point = live_threat(board, threats, counts, other_color(color))
    size, rule_code = settings.board_size, settings.rule_code
    if point >= 0 and rule_code == RENJU:
        action = action_of(point, size + 2 * pad, pad, size)
        if not is_legal_point(cells, size, rule_code, action, color):
            return -1
    return point
