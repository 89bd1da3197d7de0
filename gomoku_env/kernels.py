"""Compiled kernels of the rules: placing a stone and judging the line through it.

Every kernel works on the flat ``int8`` cell array of a board (index = row * size + col,
0 empty, 1 black, 2 white) and looks only at the lines through the last move, so a result
check costs a few dozen reads whatever the board size. :func:`judge_stone` is the one
judge of a move: the Board, the search tree, rollouts and the vector env's batch all
call it. The rule codes (FREESTYLE, STANDARD, RENJU) are defined here and only here;
:attr:`gomoku_env.config.Rule.code` reads them. The tests hold a plain-Python twin of
each kernel as the oracle.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY = 0
BLACK = 1
WHITE = 2

FREESTYLE = 0
STANDARD = 1
RENJU = 2

# Row and column steps of the four line directions: horizontal, vertical, two diagonals.
DIRECTIONS = np.array([[0, 1], [1, 0], [1, 1], [1, -1]], dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def other_color(color: int) -> int:
    """The opponent of ``color`` (BLACK or WHITE)."""
    return WHITE if color == BLACK else BLACK


@njit(cache=True, nogil=True)
def centre_point(size: int) -> int:
    """The action of the centre point (for an even ``size``, the one right and below)."""
    return (size // 2) * size + size // 2


@njit(cache=True, nogil=True, inline="always")
def edge_room(index: int, step: int, size: int) -> int:
    """Steps of ``step`` (-1, 0 or 1) from ``index`` that stay on a line of ``size``."""
    if step > 0:
        return size - 1 - index
    if step < 0:
        return index
    return size


@njit(cache=True, nogil=True, inline="always")
def stones_along(
    cells: np.ndarray, start: int, step: int, reach: int, color: int
) -> int:
    """Stones of ``color`` at ``cells[start + step]``, ``cells[start + 2 * step]``, ...
    up to the first other cell, reading at most ``reach`` cells."""
    count = 0
    cell = start + step
    while count < reach and cells[cell] == color:
        count += 1
        cell += step
    return count


@njit(cache=True, nogil=True)
def count_direction(
    cells: np.ndarray, size: int, action: int, d_row: int, d_col: int, color: int
) -> int:
    """Stones of ``color`` next to ``action`` going one way along (d_row, d_col)."""
    row, col = action // size, action % size
    reach = min(edge_room(row, d_row, size), edge_room(col, d_col, size))
    return stones_along(cells, action, d_row * size + d_col, reach, color)


@njit(cache=True, nogil=True)
def run_length(
    cells: np.ndarray, size: int, action: int, d_row: int, d_col: int, color: int
) -> int:
    """Length of the line of ``color`` through ``action`` (counting ``action`` itself)."""
    return (
        1
        + count_direction(cells, size, action, d_row, d_col, color)
        + count_direction(cells, size, action, -d_row, -d_col, color)
    )


@njit(cache=True, nogil=True, inline="always")
def wins_with_run(run: int, win_length: int, rule_code: int, color: int) -> bool:
    """Whether a line of ``run`` stones wins for ``color`` under the rule.

    Freestyle accepts ``win_length`` or more; standard only exactly ``win_length``;
    renju exactly five for black and five or more for white.
    """
    if rule_code == FREESTYLE or (rule_code == RENJU and color == WHITE):
        return run >= win_length
    return run == win_length


@njit(cache=True, nogil=True, inline="always")
def judge_stone(
    cells: np.ndarray,
    base: int,
    size: int,
    win_length: int,
    rule_code: int,
    action: int,
    color: int,
    walled: bool = False,
) -> int:
    """Index into DIRECTIONS of a line that a ``color`` stone on ``action`` wins with,
    or -1: the one judge of the rules, for every board and batch.

    The board is ``cells[base:base + size * size]`` (``base`` > 0 for one game of a
    batch stored flat); ``cells[base + action]`` itself is not read, so a stone can be
    judged before it is placed. Each side of a line is walked at most ``win_length``
    cells (a longer run only matters as "more than ``win_length``") and, on a plain
    board, no further than the edge, which one division finds. A ``walled`` board (a
    rollout's, inside a border of at least ``win_length`` non-colour cells, ``size``
    being its padded width) needs no edges: a constant flag, so that the division
    drops out of the compiled rollout.
    """
    row = col = 0
    if not walled:
        row = action // size
        col = action - row * size
    start = base + action
    for direction in range(4):
        d_row, d_col = DIRECTIONS[direction, 0], DIRECTIONS[direction, 1]
        step = d_row * size + d_col
        ahead = behind = win_length
        if not walled:
            ahead = min(edge_room(row, d_row, size), edge_room(col, d_col, size), ahead)
            behind = min(
                edge_room(row, -d_row, size), edge_room(col, -d_col, size), behind
            )
        run = (
            1
            + stones_along(cells, start, step, ahead, color)
            + stones_along(cells, start, -step, behind, color)
        )
        if wins_with_run(run, win_length, rule_code, color):
            return direction
    return -1


@njit(cache=True, nogil=True)
def winning_direction(
    cells: np.ndarray, size: int, win_length: int, rule_code: int, action: int
) -> int:
    """Index into DIRECTIONS of a winning line through the stone on ``action``, or -1
    if none (or ``action`` is empty)."""
    color = cells[action]
    if color == EMPTY:
        return -1
    return judge_stone(cells, 0, size, win_length, rule_code, action, color)


@njit(cache=True, nogil=True)
def place_and_judge(
    cells: np.ndarray,
    size: int,
    win_length: int,
    rule_code: int,
    action: int,
    color: int,
) -> bool:
    """Put a ``color`` stone on ``action`` and say whether it completes a winning line."""
    cells[action] = color
    return judge_stone(cells, 0, size, win_length, rule_code, action, color) >= 0


@njit(cache=True, nogil=True)
def line_extent(
    cells: np.ndarray, size: int, action: int, direction: int
) -> tuple[int, int]:
    """(first cell, length) of the same-coloured line through ``action`` along
    ``direction``; the cells follow at steps of that direction."""
    d_row = DIRECTIONS[direction, 0]
    d_col = DIRECTIONS[direction, 1]
    color = cells[action]
    back = count_direction(cells, size, action, -d_row, -d_col, color)
    length = 1 + back + count_direction(cells, size, action, d_row, d_col, color)
    return action - back * (d_row * size + d_col), length


@njit(cache=True, nogil=True)
def line_cells(cells: np.ndarray, size: int, action: int, direction: int) -> np.ndarray:
    """The cells of the same-coloured line through ``action`` along ``direction``."""
    start, length = line_extent(cells, size, action, direction)
    step = DIRECTIONS[direction, 0] * size + DIRECTIONS[direction, 1]
    out = np.empty(length, dtype=np.int64)
    for i in range(length):
        out[i] = start + i * step
    return out
