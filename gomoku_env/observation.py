"""Observation planes kept up to date move by move, for both players' points of view.

Rebuilding (H, W, C) planes from the board on every ``observe`` would dominate an env
step, and PettingZoo's wrappers observe more than once per step. Instead each move writes
the few cells it changes, and ``observe`` only copies.

The channels are those of :mod:`gomoku_env.planes`. Plane 4 (forbidden points) is set by
whoever owns the board (the env) through :meth:`show_forbidden`, once per move, so that
observing stays a copy.
"""

from __future__ import annotations

import numpy as np

from gomoku_env.board import Board
from gomoku_env.kernels import BLACK, WHITE
from gomoku_env.planes import (
    FORBIDDEN,
    LAST_MOVE,
    OBSERVER_IS_BLACK,
    OPPONENT_STONES,
    OWN_STONES,
    PLANE_COUNT,
    write_planes,
)

__all__ = [
    "FORBIDDEN",
    "LAST_MOVE",
    "OBSERVER_IS_BLACK",
    "OPPONENT_STONES",
    "OWN_STONES",
    "PLANE_COUNT",
    "ObservationPlanes",
]


class ObservationPlanes:
    """Channels-last int8 planes for the black (view 0) and white (view 1) observers."""

    def __init__(self, board_size: int) -> None:
        self.board_size = board_size
        self.planes = np.zeros((2, board_size, board_size, PLANE_COUNT), dtype=np.int8)
        self.planes[0, :, :, OBSERVER_IS_BLACK] = 1
        self._bind_views()

    def _bind_views(self) -> None:
        """Views into ``planes`` for the writes of :meth:`place` and for :meth:`view`.

        Scalar writes into a 1-D view with computed offsets are the cheapest numpy
        writes from Python; a move changes at most six entries.
        """
        self._flat = self.planes.reshape(-1)
        self._view_stride = self.board_size * self.board_size * PLANE_COUNT
        self._views = {BLACK: self.planes[0], WHITE: self.planes[1]}

    def __getstate__(self) -> dict[str, object]:
        """Only the planes: copied views would point at arrays of their own."""
        return {"board_size": self.board_size, "planes": self.planes}

    def __setstate__(self, state: dict[str, object]) -> None:
        """Restore the planes (from pickle or ``copy.deepcopy``), rebuilding views."""
        self.__dict__.update(state)
        self._bind_views()

    @classmethod
    def from_board(cls, board: Board) -> ObservationPlanes:
        """Planes for the position on ``board``, built by :func:`write_planes`."""
        planes = cls(board.size)
        last = -1 if board.last_move is None else board.last_move
        forbidden = board.forbidden_mask()
        for view, color, banned in (
            (0, BLACK, forbidden),
            (1, WHITE, np.zeros_like(forbidden)),
        ):
            write_planes(
                board.cells, board.size, color, last, 1 - banned, planes.planes[view]
            )
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

    def view(self, color: int) -> np.ndarray:
        """A copy of the planes as seen by the ``color`` player."""
        return self._views[color].copy()
