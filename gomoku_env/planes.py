"""The observation planes: their channels, and compiled kernels between cells and planes.

Every observation of the envs, every leaf a search hands to an evaluator and every
batch the vector env returns uses these channels (from the observing player's point
of view, who is the side to move):

=====  ============================================================
index  meaning
=====  ============================================================
0      the observer's stones
1      the opponent's stones
2      the last move (one cell set, all zero before the first move)
3      the observer's colour: all ones for black, all zeros for white
4      points forbidden to the observer, who is to move: black's renju
       forbidden points while black is to move; all zero otherwise
=====  ============================================================

:func:`write_planes` builds a position's planes from its cells in one call and
:func:`read_cells` takes the stones back out. The envs keep their planes up to date
move by move instead (:class:`gomoku_env.observation.ObservationPlanes` and the vector
env's batch), writing the same channels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gomoku_env.kernels import BLACK, EMPTY, WHITE, other_color

OWN_STONES = 0
OPPONENT_STONES = 1
LAST_MOVE = 2
OBSERVER_IS_BLACK = 3
FORBIDDEN = 4
PLANE_COUNT = 5


@njit(cache=True, nogil=True)
def write_planes(
    cells: np.ndarray,
    size: int,
    to_move: int,
    last_move: int,
    legal: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill ``out`` (H, W, PLANE_COUNT) int8 with the planes of ``cells`` seen by
    ``to_move``.

    ``last_move`` is -1 before the first move; ``legal`` is the side to move's legal
    mask, whose empty zeros (black's renju forbidden points) become FORBIDDEN.
    """
    out[:] = 0
    for action in range(cells.size):
        row, col = action // size, action % size
        if cells[action] == to_move:
            out[row, col, OWN_STONES] = 1
        elif cells[action] != EMPTY:
            out[row, col, OPPONENT_STONES] = 1
        elif legal[action] == 0:
            out[row, col, FORBIDDEN] = 1
    if last_move >= 0:
        out[last_move // size, last_move % size, LAST_MOVE] = 1
    if to_move == BLACK:
        out[:, :, OBSERVER_IS_BLACK] = 1


@njit(cache=True, nogil=True)
def read_cells(planes: np.ndarray, cells: np.ndarray) -> int:
    """Fill flat ``cells`` with the stones of ``planes`` (H, W, PLANE_COUNT); return
    the observer's colour, who is the side to move."""
    size = planes.shape[0]
    mover = BLACK if planes[0, 0, OBSERVER_IS_BLACK] else WHITE
    opponent = other_color(mover)
    for action in range(cells.size):
        row, col = action // size, action % size
        cells[action] = EMPTY
        if planes[row, col, OWN_STONES]:
            cells[action] = mover
        elif planes[row, col, OPPONENT_STONES]:
            cells[action] = opponent
    return mover
