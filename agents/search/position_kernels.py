"""Compiled position helpers of the search: legal moves, candidates, threats.

They read the flat ``int8`` cells of a position (as in :mod:`gomoku_env.kernels`) and
never change them. ``is_legal_point`` is the single place where a rule may forbid an
empty point (renju's forbidden points for black plug in there); everything else (tree
expansion, rollouts, evaluator masks) asks it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gomoku_env.kernels import BLACK, EMPTY, RENJU, judge_stone
from gomoku_env.renju import ALLOWED, forbidden_code, forbidden_codes

__all__ = [
    "candidate_mask",
    "is_legal_point",
    "legal_mask_into",
    "winning_points",
]


@njit(cache=True, nogil=True)
def is_legal_point(
    cells: np.ndarray, size: int, rule_code: int, action: int, color: int
) -> bool:
    """Whether ``color`` may play on ``action``: the legal-move hook of the rules.

    Every empty point, except black's renju forbidden points (overline, double four,
    double three: :mod:`gomoku_env.renju`). The renju entry point is called with int64
    arguments so that its recursive kernel is never compiled for new types here.
    """
    if cells[action] != EMPTY:
        return False
    if rule_code != RENJU or color != BLACK:
        return True
    return forbidden_code(cells, np.int64(size), np.int64(action)) == ALLOWED


@njit(cache=True, nogil=True)
def legal_mask_into(
    cells: np.ndarray, size: int, rule_code: int, color: int, out: np.ndarray
) -> int:
    """Write the legal-move mask (1/0) of ``color`` into ``out``; return the count."""
    codes = np.zeros(0, dtype=np.int8)
    if rule_code == RENJU and color == BLACK:
        codes = forbidden_codes(cells, np.int64(size))
    count = 0
    for action in range(cells.size):
        legal = cells[action] == EMPTY and (codes.size == 0 or codes[action] == ALLOWED)
        out[action] = 1 if legal else 0
        count += out[action]
    return count


@njit(cache=True, nogil=True)
def candidate_mask(
    cells: np.ndarray,
    size: int,
    rule_code: int,
    color: int,
    distance: int,
    out: np.ndarray,
) -> int:
    """Legal points within Chebyshev ``distance`` of a stone (all legal points when the
    board is empty or ``distance`` is 0), written into ``out``; returns the count."""
    legal_count = legal_mask_into(cells, size, rule_code, color, out)
    if distance <= 0:
        return legal_count
    near = np.zeros(cells.size, dtype=np.int8)
    stones = 0
    for action in range(cells.size):
        if cells[action] == EMPTY:
            continue
        stones += 1
        row, col = action // size, action % size
        for r in range(max(0, row - distance), min(size, row + distance + 1)):
            for c in range(max(0, col - distance), min(size, col + distance + 1)):
                near[r * size + c] = 1
    if stones == 0:
        return legal_count
    count = 0
    for action in range(cells.size):
        out[action] = out[action] & near[action]
        count += out[action]
    return count


@njit(cache=True, nogil=True)
def winning_points(
    cells: np.ndarray,
    size: int,
    win_length: int,
    rule_code: int,
    color: int,
    out: np.ndarray,
) -> int:
    """Legal points where ``color`` would win at once, written to ``out``; the count.

    Only empty neighbours of ``color`` stones can complete a line, so those are the
    points tested (a few dozen in a game, not the whole board).
    """
    tested = np.zeros(cells.size, dtype=np.int8)
    count = 0
    for stone in range(cells.size):
        if cells[stone] != color:
            continue
        row, col = stone // size, stone % size
        for r in range(max(0, row - 1), min(size, row + 2)):
            for c in range(max(0, col - 1), min(size, col + 2)):
                action = r * size + c
                if cells[action] != EMPTY or tested[action]:
                    continue
                tested[action] = 1
                if judge_stone(
                    cells, 0, size, win_length, rule_code, action, color
                ) >= 0 and is_legal_point(cells, size, rule_code, action, color):
                    out[count] = action
                    count += 1
    return count
