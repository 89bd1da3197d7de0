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
4      points forbidden to the observer, who is to move: black's renju
       forbidden points while black is to move; all zero otherwise
=====  ============================================================

Plane 4 is set by whoever owns the board (the env) through :meth:`show_forbidden`, once
per move, so that observing stays a copy.
"""

from __future__ import annotations

import numpy as np

from gomoku_env.board import Board
from gomoku_env.kernels import BLACK, WHITE

OWN_STONES = 0
OPPONENT_STONES = 1
LAST_MOVE = 2
OBSERVER_IS_BLACK = 3
FORBIDDEN = 4
PLANE_COUNT = 5


class ObservationPlanes:
    """Channels-last int8 planes for the black (view 0) and white (view 1) observers."""

    def __init__(self, board_size: int) -> None:
        self.board_size = board_size
        self.planes = np.zeros((2, board_size, board_size, PLANE_COUNT), dtype=np.int8)
        self.planes[0, :, :, OBSERVER_IS_BLACK] = 1
        # Scalar writes into a 1-D view with computed offsets are the cheapest numpy
        # writes from Python; a move changes at most six entries.
        self._flat = self.planes.reshape(-1)
        self._view_stride = board_size * board_size * PLANE_COUNT
        self._views = {BLACK: self.planes[0], WHITE: self.planes[1]}

    @classmethod
    def from_board(cls, board: Board) -> ObservationPlanes:
        """Planes for the position on ``board``."""
        planes = cls(board.size)
        previous_move = None
        for index, action in enumerate(board.moves):
            planes.place(action, BLACK if index % 2 == 0 else WHITE, previous_move)
            previous_move = action
        planes.show_forbidden(board.forbidden_mask())
        return planes

    def show_forbidden(self, mask: np.ndarray) -> None:
        """Set black's forbidden plane to the flat int8 ``mask`` (zeros clear it).

        Only black's view has one: white is never forbidden a point.
        """
        size = self.board_size
        self.planes[0, :, :, FORBIDDEN] = mask.reshape(size, size)

    def place(self, action: int, color: int, previous_move: int | None) -> None:
        """Record a ``color`` stone on ``action``; ``previous_move`` loses its marker."""
        flat, stride = self._flat, self._view_stride
        mover = 0 if color == BLACK else stride
        other = stride - mover
        cell = action * PLANE_COUNT
        flat[mover + cell + OWN_STONES] = 1
        flat[other + cell + OPPONENT_STONES] = 1
        if previous_move is not None:
            previous = previous_move * PLANE_COUNT + LAST_MOVE
            flat[previous] = 0
            flat[stride + previous] = 0
        flat[cell + LAST_MOVE] = 1
        flat[stride + cell + LAST_MOVE] = 1

    def remove(self, action: int, previous_move: int | None) -> None:
        """Undo :meth:`place`: clear ``action`` and mark ``previous_move`` again."""
        flat, stride = self._flat, self._view_stride
        cell = action * PLANE_COUNT
        for view in (0, stride):
            flat[view + cell : view + cell + LAST_MOVE + 1] = 0
            if previous_move is not None:
                flat[view + previous_move * PLANE_COUNT + LAST_MOVE] = 1

    def view(self, color: int) -> np.ndarray:
        """A copy of the planes as seen by the ``color`` player."""
        return self._views[color].copy()
