"""Observation planes kept up to date move by move, for both players' points of view.

Rebuilding (H, W, C) planes from the board on every ``observe`` would dominate an env
step, and PettingZoo's wrappers observe more than once per step. Instead each move writes
the few cells it changes, and ``observe`` only copies.

Channels (from the observing player's point of view):

=====  ============================================================
index  meaning
=====  ============================================================
0      the observer's stones
1      the opponent's stones
2      the last move (one cell set, all zero before the first move)
3      the observer's colour: all ones for black, all zeros for white
=====  ============================================================
"""

from __future__ import annotations

import numpy as np

from gomoku_env.board import Board
from gomoku_env.kernels import BLACK, WHITE

OWN_STONES = 0
OPPONENT_STONES = 1
LAST_MOVE = 2
OBSERVER_IS_BLACK = 3
PLANE_COUNT = 4


class ObservationPlanes:
    """Channels-last int8 planes for the black (view 0) and white (view 1) observers."""

    def __init__(self, board_size: int) -> None:
        self.board_size = board_size
        self.planes = np.zeros((2, board_size, board_size, PLANE_COUNT), dtype=np.int8)
        self._flat = self.planes.reshape(2, board_size * board_size, PLANE_COUNT)
        self.planes[0, :, :, OBSERVER_IS_BLACK] = 1

    @classmethod
    def from_board(cls, board: Board) -> ObservationPlanes:
        """Planes for the position on ``board``."""
        planes = cls(board.size)
        previous_move = None
        for index, action in enumerate(board.moves):
            planes.place(action, BLACK if index % 2 == 0 else WHITE, previous_move)
            previous_move = action
        return planes

    def place(self, action: int, color: int, previous_move: int | None) -> None:
        """Record a ``color`` stone on ``action``; ``previous_move`` loses its marker."""
        mover_view = 0 if color == BLACK else 1
        flat = self._flat
        flat[mover_view, action, OWN_STONES] = 1
        flat[1 - mover_view, action, OPPONENT_STONES] = 1
        if previous_move is not None:
            flat[:, previous_move, LAST_MOVE] = 0
        flat[:, action, LAST_MOVE] = 1

    def remove(self, action: int, previous_move: int | None) -> None:
        """Undo :meth:`place`: clear ``action`` and mark ``previous_move`` again."""
        flat = self._flat
        flat[:, action, :LAST_MOVE + 1] = 0
        if previous_move is not None:
            flat[:, previous_move, LAST_MOVE] = 1

    def view(self, color: int) -> np.ndarray:
        """A copy of the planes as seen by the ``color`` player."""
        return self.planes[0 if color == BLACK else 1].copy()
