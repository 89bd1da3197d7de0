"""The pattern state: every empty point's shapes and values, kept up to date move by move.

For each empty point and each colour the state knows the shape a stone there would make
in each of the four directions and the point's combined value
(:mod:`agents.patterns.point_shapes`); a position's value for a colour is the sum of its
point values. A move changes shapes only along the four lines through it, within
``win_length`` points, so :func:`place` and :func:`remove` re-judge those few dozen
points instead of the whole board. Everything here is numba-compiled and works on plain
arrays bundled in a :class:`PatternState`.

Rules: standard makes an overline worthless; in renju, black's forbidden points are
worth nothing to black (their black score is BANNED), so they are neither threats nor
moves black may search. Since a three is real only if its straight-four point is itself
allowed, a stone can change a double three far away, so every double-three candidate is
judged again after each move.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from agents.patterns import shapes as sh
from agents.patterns.point_shapes import (
    ATTACK_WEIGHT,
    DEFENCE_WEIGHT,
    FIVE_SCORE,
    OPEN_FOUR_SCORE,
    black_banned,
    combine_shapes,
    count_shape,
    is_exact,
    line_keys,
    line_shape,
)
from gomoku_env.config import RENJU_WIN_LENGTH
from gomoku_env.kernels import BLACK, DIRECTIONS, EMPTY, RENJU, WHITE

BANNED = -1
"""Black's score on its renju forbidden points: below any shape's value (10 and up), so
that a point worth nothing is told from one black may not play without a flag array of
its own, which would slow every evaluator call."""

COUNT_FIVES = 0
COUNT_WINNING = 1
COUNT_FOURS = 2
"""Columns of ``PatternState.counts``: points that make a five; points that make an open
four or a double four (a win in three plies when the opponent can make no four); points
that make any four."""


class PatternState(NamedTuple):
    """The arrays of the evaluator (colour index 0 = black, 1 = white).

    cells: the board's flat int8 cells (owned by the state, not shared with a Board).
    shapes: int8 (2, cells, 4), per colour and direction, the shape a stone would make.
    scores: int64 (2, cells), the combined value of each empty point (0 on stones).
    totals: int64 (2,), the sum of ``scores`` per colour.
    counts: int64 (2, 3), per colour the number of five, winning and four points.
    four_flags: bool (2, cells), whether a stone there makes a four.
    near: int16 (cells,), stones within two points (candidate moves have near > 0).
    table: the shape table of :func:`agents.patterns.shapes.build_shape_table`.
    """

    size: int
    win_length: int
    rule_code: int
    cells: np.ndarray
    shapes: np.ndarray
    scores: np.ndarray
    totals: np.ndarray
    counts: np.ndarray
    four_flags: np.ndarray
    near: np.ndarray
    table: np.ndarray


@njit(cache=True, nogil=True)
def _judge_directions(state: PatternState, point: int, first: int, last: int) -> None:
    """Store the shapes of ``point`` along directions ``first..last`` for both colours."""
    table, rule_code = state.table, state.rule_code
    for direction in range(first, last + 1):
        if table.shape[1] > 0:
            black_key, white_key = line_keys(
                state.cells, state.size, state.win_length, point, direction
            )
            state.shapes[0, point, direction] = table[
                int(is_exact(rule_code, BLACK)), black_key
            ]
            state.shapes[1, point, direction] = table[
                int(is_exact(rule_code, WHITE)), white_key
            ]
            continue
        for side in range(2):
            state.shapes[side, point, direction] = line_shape(
                state.cells, state.size, state.win_length, rule_code, table,
                point, direction, BLACK if side == 0 else WHITE,
            )  # fmt: skip


@njit(cache=True, nogil=True)
def _set_score(state: PatternState, point: int, side: int, value: int) -> None:
    old = state.scores[side, point]
    state.totals[side] += value - old
    state.counts[side, COUNT_FIVES] += (value == FIVE_SCORE) - (old == FIVE_SCORE)
    was_winning = OPEN_FOUR_SCORE <= old < FIVE_SCORE
    is_winning = OPEN_FOUR_SCORE <= value < FIVE_SCORE
    state.counts[side, COUNT_WINNING] += is_winning - was_winning
    state.scores[side, point] = value


@njit(cache=True, nogil=True)
def _has_four(point_shapes: np.ndarray) -> bool:
    for direction in range(4):
        if (
            point_shapes[direction] == sh.FOUR
            or point_shapes[direction] == sh.OPEN_FOUR
        ):
            return True
    return False


@njit(cache=True, nogil=True)
def _set_four_flag(state: PatternState, point: int, side: int, flag: bool) -> None:
    state.counts[side, COUNT_FOURS] += flag - state.four_flags[side, point]
    state.four_flags[side, point] = flag


@njit(cache=True, nogil=True)
def _judge_point(state: PatternState, point: int, first: int, last: int) -> None:
    """Re-judge directions ``first..last`` of an empty point for both colours."""
    _judge_directions(state, point, first, last)
    _score_point(state, point)


@njit(cache=True, nogil=True)
def _score_point(state: PatternState, point: int) -> None:
    """Recompute the value and four flag of an empty point from its stored shapes."""
    for side in range(2):
        value = combine_shapes(state.shapes[side, point])
        if (
            side == 0
            and state.rule_code == RENJU
            and black_banned(
                state.cells, state.size, state.shapes[0, point], point, value
            )
        ):
            value = BANNED
        _set_score(state, point, side, value)
        _set_four_flag(
            state, point, side, value > 0 and _has_four(state.shapes[side, point])
        )


@njit(cache=True, nogil=True)
def _line_values(
    state: PatternState, point: int, direction: int, span: int
) -> np.ndarray:
    """Segment codes of the points ``-span..span`` along a line, for each colour."""
    size = state.size
    d_row, d_col = DIRECTIONS[direction, 0], DIRECTIONS[direction, 1]
    row, col = point // size, point % size
    values = np.full((2, 2 * span + 1), sh.SEGMENT_BLOCKED, dtype=np.int64)
    for offset in range(-span, span + 1):
        r, c = row + offset * d_row, col + offset * d_col
        if 0 <= r < size and 0 <= c < size:
            stone = state.cells[r * size + c]
            if stone == EMPTY:
                values[0, offset + span] = values[1, offset + span] = sh.SEGMENT_EMPTY
            else:
                values[stone - 1, offset + span] = sh.SEGMENT_OWN
    return values


@njit(cache=True, nogil=True)
def _refresh_direction(state: PatternState, point: int, direction: int) -> None:
    """Re-judge, with one read of the line, the empty points near ``point`` on it."""
    reach = state.win_length
    values = _line_values(state, point, direction, 2 * reach)
    exact_black = int(is_exact(state.rule_code, BLACK))
    exact_white = int(is_exact(state.rule_code, WHITE))
    for offset in range(-reach, reach + 1):
        centre = offset + 2 * reach
        if offset == 0 or values[0, centre] != sh.SEGMENT_EMPTY:
            continue
        black_key = white_key = 0
        for index in range(centre + reach, centre - reach - 1, -1):
            if index != centre:
                black_key = black_key * 3 + values[0, index]
                white_key = white_key * 3 + values[1, index]
        other = point + offset * (
            DIRECTIONS[direction, 0] * state.size + DIRECTIONS[direction, 1]
        )
        state.shapes[0, other, direction] = state.table[exact_black, black_key]
        state.shapes[1, other, direction] = state.table[exact_white, white_key]
        _score_point(state, other)


@njit(cache=True, nogil=True)
def _refresh_lines(state: PatternState, point: int) -> None:
    """Re-judge the empty points whose segments pass through ``point``."""
    size, reach = state.size, state.win_length
    row, col = point // size, point % size
    for direction in range(4):
        if state.table.shape[1] > 0:
            _refresh_direction(state, point, direction)
            continue
        d_row, d_col = DIRECTIONS[direction, 0], DIRECTIONS[direction, 1]
        for offset in range(-reach, reach + 1):
            r, c = row + offset * d_row, col + offset * d_col
            if offset != 0 and 0 <= r < size and 0 <= c < size:
                other = r * size + c
                if state.cells[other] == EMPTY:
                    _judge_point(state, other, direction, direction)


@njit(cache=True, nogil=True)
def _update_near(state: PatternState, point: int, delta: int) -> None:
    size = state.size
    row, col = point // size, point % size
    for r in range(max(0, row - 2), min(size, row + 3)):
        for c in range(max(0, col - 2), min(size, col + 3)):
            state.near[r * size + c] += delta


@njit(cache=True, nogil=True)
def _rejudge_double_threes(state: PatternState) -> None:
    """Score again every point where black has open threes on two lines (renju).

    Whether such a point is a forbidden double three depends on the points that would
    make its threes straight fours, which a stone off its own lines can change.
    """
    for point in range(state.cells.size):
        if (
            state.cells[point] == EMPTY
            and count_shape(state.shapes[0, point], sh.OPEN_THREE) >= 2
        ):
            _score_point(state, point)


@njit(cache=True, nogil=True)
def place(state: PatternState, point: int, color: int) -> None:
    """Put a ``color`` stone on empty ``point`` and update the shapes it changes."""
    state.cells[point] = color
    for side in range(2):
        _set_score(state, point, side, 0)
        _set_four_flag(state, point, side, False)
    _update_near(state, point, 1)
    _refresh_lines(state, point)
    if state.rule_code == RENJU:
        _rejudge_double_threes(state)


@njit(cache=True, nogil=True)
def remove(state: PatternState, point: int) -> None:
    """Take the stone off ``point`` (undoing :func:`place`) and update the shapes."""
    state.cells[point] = EMPTY
    _update_near(state, point, -1)
    _judge_point(state, point, 0, 3)
    _refresh_lines(state, point)
    if state.rule_code == RENJU:
        _rejudge_double_threes(state)


@njit(cache=True, nogil=True)
def judge_all(state: PatternState) -> None:
    """Judge every point from scratch (after the cells were set directly)."""
    state.totals[:] = 0
    state.counts[:] = 0
    state.four_flags[:] = False
    state.scores[:] = 0
    state.near[:] = 0
    for point in range(state.cells.size):
        if state.cells[point] != EMPTY:
            _update_near(state, point, 1)
    for point in range(state.cells.size):
        if state.cells[point] == EMPTY:
            _judge_point(state, point, 0, 3)


def new_state(
    cells: np.ndarray, size: int, win_length: int, rule_code: int
) -> PatternState:
    """A :class:`PatternState` for a copy of ``cells`` (flat int8, 0/1/2)."""
    if rule_code == RENJU and win_length != RENJU_WIN_LENGTH:
        raise ValueError(
            f"renju is played to five in a row: win_length must be "
            f"{RENJU_WIN_LENGTH} under rule 'renju', got {win_length}"
        )
    count = size * size
    state = PatternState(
        size=size,
        win_length=win_length,
        rule_code=rule_code,
        cells=np.array(cells, dtype=np.int8, copy=True),
        shapes=np.zeros((2, count, 4), dtype=np.int8),
        scores=np.zeros((2, count), dtype=np.int64),
        totals=np.zeros(2, dtype=np.int64),
        counts=np.zeros((2, 3), dtype=np.int64),
        four_flags=np.zeros((2, count), dtype=np.bool_),
        near=np.zeros(count, dtype=np.int16),
        table=sh.build_shape_table(win_length),
    )
    judge_all(state)
    return state


@njit(cache=True, nogil=True)
def move_score(state: PatternState, point: int, color: int) -> int:
    """How good ``point`` is for ``color`` to play: attack and defence together."""
    side = 0 if color == BLACK else 1
    return (
        ATTACK_WEIGHT * state.scores[side, point]
        + DEFENCE_WEIGHT * state.scores[1 - side, point]
    )


@njit(cache=True, nogil=True)
def position_value(state: PatternState, color: int) -> int:
    """The static value for ``color``: its point values minus the opponent's."""
    side = 0 if color == BLACK else 1
    return state.totals[side] - state.totals[1 - side]
