"""Pattern values of a whole board in one call, for compiled callers without a state.

:func:`point_values` judges every empty point (see :mod:`agents.patterns.point_shapes`);
:func:`move_scores` turns them into move scores for one colour, attack and defence
together. MCTS priors and rollout policies use these; a search that plays and undoes
moves keeps an incremental :class:`agents.patterns.pattern_state.PatternState` instead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.patterns.point_shapes import (
    ATTACK_WEIGHT,
    DEFENCE_WEIGHT,
    black_banned,
    combine_shapes,
    line_shape,
)
from gomoku_env.kernels import BLACK, EMPTY, RENJU, other_color
from gomoku_env.legal import legal_mask_into


@njit(cache=True, nogil=True)
def point_values(
    cells: np.ndarray, size: int, win_length: int, rule_code: int, color: int,
    table: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """Write into ``out`` (int64, one per cell) what a ``color`` stone is worth on each
    empty point (0 on stones and on black's renju forbidden points), judging the whole
    board without a state."""
    point_shapes = np.empty(4, dtype=np.int8)
    scratch = cells.copy() if rule_code == RENJU and color == BLACK else cells
    for point in range(cells.size):
        out[point] = 0
        if cells[point] == EMPTY:
            for direction in range(4):
                point_shapes[direction] = line_shape(
                    cells, size, win_length, rule_code, table, point, direction, color
                )
            value = combine_shapes(point_shapes)
            if rule_code == RENJU and color == BLACK:
                value = (
                    0
                    if black_banned(scratch, size, point_shapes, point, value)
                    else value
                )
            out[point] = value


@njit(cache=True, nogil=True)
def move_scores(
    cells: np.ndarray, size: int, win_length: int, rule_code: int, color: int,
    table: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """Write into ``out`` (int64, one per cell) each point's move score for ``color``:
    ATTACK_WEIGHT × its value to ``color`` + DEFENCE_WEIGHT × its value to the opponent.

    A stateless entry point for compiled callers (priors, rollout policies): it judges
    the whole board, so a search that plays and undoes moves should keep a
    :class:`PatternState` instead. Occupied points get -1, and so do black's forbidden
    points under renju. ``table`` comes from :func:`agents.patterns.shapes.build_shape_table`
    (one with no columns: judge directly).
    """
    other = other_color(color)
    defence = np.empty(cells.size, dtype=np.int64)
    point_values(cells, size, win_length, rule_code, color, table, out)
    point_values(cells, size, win_length, rule_code, other, table, defence)
    legal = np.empty(cells.size, dtype=np.int8)
    legal_mask_into(cells, size, rule_code, color, legal)
    for point in range(cells.size):
        if not legal[point]:
            out[point] = -1
        else:
            out[point] = ATTACK_WEIGHT * out[point] + DEFENCE_WEIGHT * defence[point]
