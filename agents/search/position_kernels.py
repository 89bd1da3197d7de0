"""Compiled position helpers of the search: legal moves, candidates, threats.

They read the flat ``int8`` cells of a position (as in :mod:`gomoku_env.kernels`) and
never change them. ``is_legal_point`` and ``legal_mask_into`` are the rules' own
(:mod:`gomoku_env.legal`, re-exported here): the search's tree expansion, rollouts and
evaluator masks ask them rather than judging a point themselves. (The pattern kernels
of :mod:`agents.patterns` mark renju's forbidden points too, for their scores and the
VCF solver.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gomoku_env.kernels import EMPTY, judge_stone
from gomoku_env.legal import is_legal_point, legal_mask_into

__all__ = [
    "candidate_mask",
    "is_legal_point",
    "legal_mask_into",
    "winning_points",
]


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
