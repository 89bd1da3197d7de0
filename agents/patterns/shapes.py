"""Line shapes: what a stone on an empty point makes along one direction.

A shape is judged on the segment of ``2 * win_length + 1`` points centred on the point,
coded 0 (empty), 1 (own stone) or 2 (blocked: an opponent stone or off the board), with
the centre taken as an own stone. The definitions are the classic ones, generalised to
any win length:

- FIVE: the line through the centre wins (exactly ``win_length`` when ``exact``, as in
  the standard rule and for black in renju; at least ``win_length`` otherwise).
- OVERLINE: the centre makes a line longer than ``win_length`` that does not win.
- OPEN_FOUR / FOUR: two or more / exactly one empty point completes a five.
- OPEN_THREE / THREE: one more stone can make an open four / only a four.
- OPEN_TWO / TWO / ONE / DEAD: counted on windows of ``win_length`` points free of
  blockers: two or more own stones in a window whose both neighbours are empty / in any
  window / a free window with fewer / no free window at all (no five can pass here).

:func:`build_shape_table` judges every segment once (for win lengths up to
``TABLE_MAX_WIN_LENGTH``) so that a lookup replaces the judgement in hot loops.
"""

from __future__ import annotations

import numpy as np
from numba import njit

DEAD = 0
OVERLINE = 1
ONE = 2
TWO = 3
OPEN_TWO = 4
THREE = 5
OPEN_THREE = 6
FOUR = 7
OPEN_FOUR = 8
FIVE = 9
SHAPE_NAMES = (
    "dead", "overline", "one", "two", "open two", "three", "open three", "four",
    "open four", "five",
)  # fmt: skip

SEGMENT_EMPTY = 0
SEGMENT_OWN = 1
SEGMENT_BLOCKED = 2

TABLE_MAX_WIN_LENGTH = 6
"""Above this win length the table (3 ** (2 * win_length) entries) is not built."""


@njit(cache=True, nogil=True)
def center_run(segment: np.ndarray, win_length: int) -> int:
    """Length of the own line through the centre of ``segment``."""
    run = 1
    index = win_length - 1
    while index >= 0 and segment[index] == SEGMENT_OWN:
        run += 1
        index -= 1
    index = win_length + 1
    while index < segment.size and segment[index] == SEGMENT_OWN:
        run += 1
        index += 1
    return run


@njit(cache=True, nogil=True)
def wins(run: int, win_length: int, exact: bool) -> bool:
    """Whether a line of ``run`` stones wins (exactly or at least ``win_length``)."""
    return run == win_length if exact else run >= win_length


@njit(cache=True, nogil=True)
def five_points(segment: np.ndarray, win_length: int, exact: bool) -> int:
    """Empty points of ``segment`` completing a winning line through the centre."""
    count = 0
    for index in range(1, 2 * win_length):
        if segment[index] == SEGMENT_EMPTY:
            segment[index] = SEGMENT_OWN
            if wins(center_run(segment, win_length), win_length, exact):
                count += 1
            segment[index] = SEGMENT_EMPTY
    return count


@njit(cache=True, nogil=True)
def _three_shape(segment: np.ndarray, win_length: int, exact: bool) -> int:
    """OPEN_THREE, THREE or DEAD (meaning: not a three) for a segment without a four."""
    best = DEAD
    for index in range(1, 2 * win_length):
        if segment[index] == SEGMENT_EMPTY:
            segment[index] = SEGMENT_OWN
            fours = five_points(segment, win_length, exact)
            segment[index] = SEGMENT_EMPTY
            if fours >= 2:
                return OPEN_THREE
            if fours == 1:
                best = THREE
    return best


@njit(cache=True, nogil=True)
def _window_shape(segment: np.ndarray, win_length: int, exact: bool) -> int:
    """OPEN_TWO, TWO, ONE or DEAD from the free windows through the centre."""
    most = -1
    is_open = False
    for start in range(1, win_length + 1):
        own = 0
        free = (
            segment[start - 1] != SEGMENT_OWN
            and segment[start + win_length] != SEGMENT_OWN
        )
        free = free or not exact
        for index in range(start, start + win_length):
            if segment[index] == SEGMENT_BLOCKED:
                free = False
            own += segment[index] == SEGMENT_OWN
        if free:
            most = max(most, own)
            ends_empty = (
                segment[start - 1] == SEGMENT_EMPTY
                and segment[start + win_length] == SEGMENT_EMPTY
            )
            is_open = is_open or (ends_empty and own >= 2)
    if most < 0:
        return DEAD
    if is_open:
        return OPEN_TWO
    return TWO if most >= 2 else ONE


@njit(cache=True, nogil=True)
def judge_segment(segment: np.ndarray, win_length: int, exact: bool) -> int:
    """The shape an own stone on the centre of ``segment`` makes (see module doc)."""
    segment[win_length] = SEGMENT_OWN
    run = center_run(segment, win_length)
    if wins(run, win_length, exact):
        return FIVE
    if run > win_length:
        return OVERLINE
    fours = five_points(segment, win_length, exact)
    if fours >= 2:
        return OPEN_FOUR
    if fours == 1:
        return FOUR
    three = _three_shape(segment, win_length, exact)
    if three != DEAD:
        return three
    return _window_shape(segment, win_length, exact)


@njit(cache=True, nogil=True)
def decode_segment(key: int, win_length: int, segment: np.ndarray) -> None:
    """Fill ``segment`` from a base-3 ``key`` over the points other than the centre."""
    for index in range(2 * win_length + 1):
        if index == win_length:
            continue
        segment[index] = key % 3
        key //= 3


@njit(cache=True, nogil=True)
def _fill_table(win_length: int, table: np.ndarray) -> None:
    segment = np.zeros(2 * win_length + 1, dtype=np.int8)
    for exact in range(2):
        for key in range(table.shape[1]):
            decode_segment(key, win_length, segment)
            table[exact, key] = judge_segment(segment, win_length, exact == 1)


_TABLES: dict[int, np.ndarray] = {}


def build_shape_table(win_length: int) -> np.ndarray:
    """The shape of every segment key, as an int8 array (2, 3 ** (2 * win_length)).

    Row 1 is for exact wins, row 0 for at-least wins. Above ``TABLE_MAX_WIN_LENGTH`` the
    array has no columns and the kernels judge segments directly. Tables are built once
    per win length and shared (read-only).
    """
    if win_length not in _TABLES:
        columns = 3 ** (2 * win_length) if win_length <= TABLE_MAX_WIN_LENGTH else 0
        table = np.zeros((2, columns), dtype=np.int8)
        _fill_table(win_length, table)
        table.flags.writeable = False
        _TABLES[win_length] = table
    return _TABLES[win_length]
