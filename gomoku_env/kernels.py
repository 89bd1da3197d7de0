"""Compiled kernels of the rules: placing a stone and judging the line through it.

Every kernel works on the flat ``int8`` cell array of a board (index = row * size + col,
0 empty, 1 black, 2 white) and looks only at the lines through the last move, so a result
check costs a few dozen reads whatever the board size. The tests hold a plain-Python twin
of each kernel as the oracle.
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


@njit(cache=True, nogil=True)
def count_direction(
    cells: np.ndarray, size: int, action: int, d_row: int, d_col: int, color: int
) -> int:
    """Stones of ``color`` next to ``action`` going one way along (d_row, d_col)."""
    row = action // size + d_row
    col = action % size + d_col
    count = 0
    while 0 <= row < size and 0 <= col < size and cells[row * size + col] == color:
        count += 1
        row += d_row
        col += d_col
    return count


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


@njit(cache=True, nogil=True)
def wins_with_run(run: int, win_length: int, rule_code: int, color: int) -> bool:
    """Whether a line of ``run`` stones wins for ``color`` under the rule.

    Freestyle accepts ``win_length`` or more; standard only exactly ``win_length``;
    renju exactly five for black and five or more for white.
    """
    if rule_code == FREESTYLE or (rule_code == RENJU and color == WHITE):
        return run >= win_length
    return run == win_length


@njit(cache=True, nogil=True)
def winning_direction(
    cells: np.ndarray, size: int, win_length: int, rule_code: int, action: int
) -> int:
    """Index into DIRECTIONS of a winning line through ``action``, or -1 if none."""
    color = cells[action]
    if color == EMPTY:
        return -1
    for direction in range(4):
        run = run_length(
            cells,
            size,
            action,
            DIRECTIONS[direction, 0],
            DIRECTIONS[direction, 1],
            color,
        )
        if wins_with_run(run, win_length, rule_code, color):
            return direction
    return -1


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
    return winning_direction(cells, size, win_length, rule_code, action) >= 0


@njit(cache=True, nogil=True)
def line_cells(cells: np.ndarray, size: int, action: int, direction: int) -> np.ndarray:
    """The cells of the same-coloured line through ``action`` along ``direction``."""
    d_row = DIRECTIONS[direction, 0]
    d_col = DIRECTIONS[direction, 1]
    color = cells[action]
    back = count_direction(cells, size, action, -d_row, -d_col, color)
    length = 1 + back + count_direction(cells, size, action, d_row, d_col, color)
    start_row = action // size - back * d_row
    start_col = action % size - back * d_col
    out = np.empty(length, dtype=np.int64)
    for i in range(length):
        out[i] = (start_row + i * d_row) * size + start_col + i * d_col
    return out
