"""What a stone on one empty point would make: its shape on each line, and its value.

A point's shape along a line (five, open four, …, see :mod:`agents.patterns.shapes`)
comes from the segment of ``win_length`` points on each side of it, read from the
board's flat cells, through the shape table when there is one. A point's value combines
its four shapes (a double four or a four with an open three is worth nearly as much as
an open four). Under renju, black's forbidden points are decided by the rules core's
legality kernel (:func:`gomoku_env.legal.is_legal_in_place`, on renju's kernels), only
where the shapes leave room for a ban.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.patterns import shapes as sh
from gomoku_env.kernels import BLACK, DIRECTIONS, EMPTY, RENJU, STANDARD
from gomoku_env.legal import is_legal_in_place

FIVE_SCORE = 10_000_000
OPEN_FOUR_SCORE = 1_000_000
FOUR_THREE_SCORE = 200_000
DOUBLE_THREE_SCORE = 100_000
SHAPE_SCORES = np.array(
    [0, 0, 10, 60, 400, 500, 5_000, 6_000, OPEN_FOUR_SCORE, FIVE_SCORE]
)
"""Value of a single shape, indexed by shape code (DEAD … FIVE)."""

ATTACK_WEIGHT = 2
DEFENCE_WEIGHT = 1
"""Move scores count a point's value for the mover twice and for the opponent once, so
that making a five beats blocking one and making an open four beats blocking a three."""


@njit(cache=True, nogil=True)
def is_exact(rule_code: int, color: int) -> bool:
    """Whether only exactly ``win_length`` wins for ``color`` under the rule."""
    return rule_code == STANDARD or (rule_code == RENJU and color == BLACK)


@njit(cache=True, nogil=True)
def _segment_value(cells: np.ndarray, size: int, row: int, col: int, color: int) -> int:
    if row < 0 or row >= size or col < 0 or col >= size:
        return sh.SEGMENT_BLOCKED
    stone = cells[row * size + col]
    if stone == EMPTY:
        return sh.SEGMENT_EMPTY
    return sh.SEGMENT_OWN if stone == color else sh.SEGMENT_BLOCKED


@njit(cache=True, nogil=True)
def line_shape(
    cells: np.ndarray, size: int, win_length: int, rule_code: int, table: np.ndarray,
    point: int, direction: int, color: int,
) -> int:  # fmt: skip
    """The shape a ``color`` stone on empty ``point`` makes along ``direction``."""
    d_row, d_col = DIRECTIONS[direction, 0], DIRECTIONS[direction, 1]
    row, col = point // size, point % size
    exact = is_exact(rule_code, color)
    if table.shape[1] > 0:
        key = 0
        for offset in range(win_length, -win_length - 1, -1):
            if offset != 0:
                value = _segment_value(
                    cells, size, row + offset * d_row, col + offset * d_col, color
                )
                key = key * 3 + value
        return table[1 if exact else 0, key]
    segment = np.empty(2 * win_length + 1, dtype=np.int8)
    for offset in range(-win_length, win_length + 1):
        segment[offset + win_length] = _segment_value(
            cells, size, row + offset * d_row, col + offset * d_col, color
        )
    return sh.judge_segment(segment, win_length, exact)


@njit(cache=True, nogil=True)
def line_keys(
    cells: np.ndarray, size: int, win_length: int, point: int, direction: int
) -> tuple[int, int]:
    """The table keys of the segment through ``point`` for black and for white at once
    (one pass over the cells instead of one per colour)."""
    d_row, d_col = DIRECTIONS[direction, 0], DIRECTIONS[direction, 1]
    row, col = point // size, point % size
    black_key = white_key = 0
    for offset in range(win_length, -win_length - 1, -1):
        if offset == 0:
            continue
        r, c = row + offset * d_row, col + offset * d_col
        black_value = white_value = sh.SEGMENT_BLOCKED
        if 0 <= r < size and 0 <= c < size:
            stone = cells[r * size + c]
            if stone == EMPTY:
                black_value = white_value = sh.SEGMENT_EMPTY
            elif stone == BLACK:
                black_value = sh.SEGMENT_OWN
            else:
                white_value = sh.SEGMENT_OWN
        black_key = black_key * 3 + black_value
        white_key = white_key * 3 + white_value
    return black_key, white_key


@njit(cache=True, nogil=True)
def combine_shapes(point_shapes: np.ndarray) -> int:
    """The value of a point from its four shapes (combinations such as four + three)."""
    fives = fours = open_threes = 0
    total = 0
    for direction in range(4):
        shape = point_shapes[direction]
        total += SHAPE_SCORES[shape]
        fives += shape == sh.FIVE
        fours += shape == sh.FOUR or shape == sh.OPEN_FOUR
        open_threes += shape == sh.OPEN_THREE
        if shape == sh.OPEN_FOUR:
            fours += 1
    if fives > 0:
        return FIVE_SCORE
    if fours >= 2:
        return OPEN_FOUR_SCORE
    if fours == 1 and open_threes > 0:
        return FOUR_THREE_SCORE
    if open_threes >= 2:
        return DOUBLE_THREE_SCORE
    return total


@njit(cache=True, nogil=True)
def count_shape(point_shapes: np.ndarray, shape: int) -> int:
    """On how many of the four lines the point has ``shape``."""
    count = 0
    for direction in range(4):
        count += point_shapes[direction] == shape
    return count


@njit(cache=True, nogil=True)
def ban_possible(point_shapes: np.ndarray) -> bool:
    """Whether black's shapes on a point leave room for a renju ban.

    An overline needs an overline line, a double four an open four's shape (one line
    can hold two fours) or fours on two lines, a double three open threes on two lines
    (a real three can become a straight four, which is an open four).
    """
    fours = count_shape(point_shapes, sh.FOUR)
    open_fours = count_shape(point_shapes, sh.OPEN_FOUR)
    return (
        count_shape(point_shapes, sh.OVERLINE) > 0
        or open_fours > 0
        or fours >= 2
        or count_shape(point_shapes, sh.OPEN_THREE) >= 2
    )


@njit(cache=True, nogil=True)
def black_forbidden(cells: np.ndarray, size: int, point: int) -> bool:
    """Whether renju forbids black the empty ``point``, as the rules core decides
    (:func:`gomoku_env.legal.is_legal_in_place`).

    Trial stones go on ``cells`` and are taken back: pass an array no one else reads
    meanwhile (the state's own cells, or a copy).
    """
    return not is_legal_in_place(cells, size, RENJU, point, BLACK)


@njit(cache=True, nogil=True)
def black_banned(
    cells: np.ndarray, size: int, point_shapes: np.ndarray, point: int, value: int
) -> bool:
    """Whether renju forbids black the empty ``point`` whose shapes are worth ``value``
    (a five never is; the kernels run only where the shapes allow a ban)."""
    return (
        value < FIVE_SCORE
        and ban_possible(point_shapes)
        and black_forbidden(cells, size, point)
    )
