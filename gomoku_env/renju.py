"""Renju's forbidden points for black: overline, double four and double three.

Under renju black may not play a point that makes an overline (six or more in a row), two
or more fours (two on one line, such as ``X.XXX.X``, count as two), or two or more real
open threes. A three is real only if some move turns it into a straight four and that
move is itself not forbidden, which is checked recursively as in the international
(RIF) rules. A move that makes an exact five is never forbidden.

The kernels work on the flat ``int8`` cell array of a board (see :mod:`kernels`) and
never change it: each public kernel copies it once and works on the copy. Every answer
is a code: 0 (allowed) or one of OVERLINE, DOUBLE_FOUR, DOUBLE_THREE, with
:data:`FORBIDDEN_REASONS` giving their names. :func:`forbidden_codes` skips the points
that cannot be forbidden whatever the stones (too few black stones on their lines), so
building black's whole mask costs little more than a scan of the board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gomoku_env.kernels import BLACK, DIRECTIONS, EMPTY, count_direction, run_length

ALLOWED = 0
OVERLINE = 1
DOUBLE_FOUR = 2
DOUBLE_THREE = 3
FORBIDDEN_REASONS = (None, "overline", "double_four", "double_three")

# A four through a point has its other stones within this distance along the line, and a
# straight four made from a three within one less.
FOUR_REACH = 4
THREE_REACH = 3
# The distance between the two five-making points of one straight four (.XXXX.).
STRAIGHT_FOUR_SPAN = 5


@njit(cache=True, nogil=True)
def _is_black(cells: np.ndarray, size: int, row: int, col: int) -> bool:
    return 0 <= row < size and 0 <= col < size and cells[row * size + col] == BLACK


@njit(cache=True, nogil=True)
def _is_empty(cells: np.ndarray, size: int, row: int, col: int) -> bool:
    return 0 <= row < size and 0 <= col < size and cells[row * size + col] == EMPTY


@njit(cache=True, nogil=True)
def fours_in_direction(
    cells: np.ndarray, size: int, action: int, d_row: int, d_col: int
) -> int:
    """Fours through the black stone on ``action`` along (d_row, d_col).

    A four is a set of stones that one more move turns into an exact five. Each empty
    point that would complete an exact five with ``action`` is counted, except that the
    two ends of one straight four (five points apart) count once.
    """
    row, col = divmod(action, size)
    fours = 0
    previous = -4 * FOUR_REACH
    for step in range(-FOUR_REACH, FOUR_REACH + 1):
        r, c = row + step * d_row, col + step * d_col
        if step == 0 or not _is_empty(cells, size, r, c):
            continue
        cells[r * size + c] = BLACK
        if run_length(cells, size, action, d_row, d_col, BLACK) == 5:
            if step - previous != STRAIGHT_FOUR_SPAN:
                fours += 1
            previous = step
        cells[r * size + c] = EMPTY
    return fours


@njit(cache=True, nogil=True)
def is_straight_four(
    cells: np.ndarray, size: int, action: int, d_row: int, d_col: int
) -> bool:
    """Whether ``action`` is in exactly four black stones in a row, both ends making five.

    Both end points must be empty and the points beyond them not black (the board edge
    and white stones are fine), so that either end completes an exact five.
    """
    row, col = divmod(action, size)
    back = count_direction(cells, size, action, -d_row, -d_col, BLACK)
    ahead = count_direction(cells, size, action, d_row, d_col, BLACK)
    if back + ahead + 1 != 4:
        return False
    for sign, reach in ((-1, back + 1), (1, ahead + 1)):
        r, c = row + sign * reach * d_row, col + sign * reach * d_col
        if not _is_empty(cells, size, r, c):
            return False
        if _is_black(cells, size, r + sign * d_row, c + sign * d_col):
            return False
    return True


@njit(cache=True, nogil=True)
def _straight_four_point(
    cells: np.ndarray, size: int, action: int, d_row: int, d_col: int, step: int
) -> int:
    """The empty point ``step`` away along the line if playing it makes a straight four
    with ``action``, else -1."""
    row, col = divmod(action, size)
    r, c = row + step * d_row, col + step * d_col
    if step == 0 or not _is_empty(cells, size, r, c):
        return -1
    point = r * size + c
    cells[point] = BLACK
    straight = is_straight_four(cells, size, action, d_row, d_col)
    cells[point] = EMPTY
    return point if straight else -1


@njit(cache=True, nogil=True)
def has_three_shape(
    cells: np.ndarray, size: int, action: int, d_row: int, d_col: int
) -> bool:
    """Whether one move along the line makes a straight four with ``action``.

    The shape of a three; whether it is a real three depends on that move being allowed.
    """
    for step in range(-THREE_REACH, THREE_REACH + 1):
        if _straight_four_point(cells, size, action, d_row, d_col, step) >= 0:
            return True
    return False


@njit(cache=True, nogil=True)
def _shape_code(cells: np.ndarray, size: int, action: int) -> int:
    """The code of the black stone on ``action`` as far as shapes alone decide it.

    ALLOWED, OVERLINE or DOUBLE_FOUR when that settles it; when two or more lines hold
    a three's shape, minus the bit set of those lines, for :func:`_code_of_move` to check
    whether the threes are real.
    """
    overline = False
    for direction in range(4):
        run = run_length(
            cells,
            size,
            action,
            DIRECTIONS[direction, 0],
            DIRECTIONS[direction, 1],
            BLACK,
        )
        if run == 5:
            return ALLOWED
        overline = overline or run > 5
    if overline:
        return OVERLINE
    fours = 0
    shapes = 0
    three_directions = 0
    for direction in range(4):
        d_row, d_col = DIRECTIONS[direction, 0], DIRECTIONS[direction, 1]
        line_fours = fours_in_direction(cells, size, action, d_row, d_col)
        fours += line_fours
        if line_fours == 0 and has_three_shape(cells, size, action, d_row, d_col):
            shapes += 1
            three_directions |= 1 << direction
    if fours >= 2:
        return DOUBLE_FOUR
    return -three_directions if shapes >= 2 else ALLOWED


@njit(cache=True, nogil=True)
def _code_of_move(cells: np.ndarray, size: int, action: int) -> int:
    """The forbidden code of black playing the empty ``action``; ``cells`` is restored.

    A line with a three's shape holds a real three when one of its straight-four points
    is itself allowed, which this function decides by calling itself on that point.
    """
    cells[action] = BLACK
    code = _shape_code(cells, size, action)
    if code < 0:
        real_threes = 0
        for direction in range(4):
            if not -code & (1 << direction):
                continue
            d_row, d_col = DIRECTIONS[direction, 0], DIRECTIONS[direction, 1]
            for step in range(-THREE_REACH, THREE_REACH + 1):
                point = _straight_four_point(cells, size, action, d_row, d_col, step)
                if point >= 0 and _code_of_move(cells, size, point) == ALLOWED:
                    real_threes += 1
                    break
        code = DOUBLE_THREE if real_threes >= 2 else ALLOWED
    cells[action] = EMPTY
    return code


@njit(cache=True, nogil=True)
def may_be_forbidden(cells: np.ndarray, size: int, action: int) -> bool:
    """False when too few black stones lie on the lines through ``action`` for any ban.

    A double three needs two lines with two other black stones within reach, an
    overline or a double four on one line four; with neither, no check is needed.
    """
    row, col = divmod(action, size)
    busy_lines = 0
    for direction in range(4):
        d_row, d_col = DIRECTIONS[direction, 0], DIRECTIONS[direction, 1]
        stones = 0
        for step in range(1, FOUR_REACH + 1):
            for sign in (-1, 1):
                r, c = row + sign * step * d_row, col + sign * step * d_col
                if _is_black(cells, size, r, c):
                    stones += 1
        if stones >= 4:
            return True
        if stones >= 2:
            busy_lines += 1
    return busy_lines >= 2


@njit(cache=True, nogil=True)
def forbidden_code(cells: np.ndarray, size: int, action: int) -> int:
    """Why black may not play ``action``: a code, ALLOWED for an allowed or occupied point."""
    if cells[action] != EMPTY or not may_be_forbidden(cells, size, action):
        return ALLOWED
    return _code_of_move(cells.copy(), size, action)


@njit(cache=True, nogil=True)
def forbidden_codes(cells: np.ndarray, size: int) -> np.ndarray:
    """The forbidden code of every point for black (int8, ALLOWED on occupied points)."""
    scratch = cells.copy()
    codes = np.zeros(cells.size, dtype=np.int8)
    for action in range(cells.size):
        if scratch[action] == EMPTY and may_be_forbidden(scratch, size, action):
            codes[action] = _code_of_move(scratch, size, action)
    return codes
