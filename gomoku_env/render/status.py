"""Words and marks derived from a position: the status line and the forbidden points."""

from __future__ import annotations

import numpy as np

from gomoku_env.board import COLOR_NAMES, Board
from gomoku_env.kernels import EMPTY


def board_status(board: Board) -> str:
    """A one-line status: who is to move, or the result and why."""
    if board.winner != EMPTY:
        name = COLOR_NAMES[int(board.winner)].capitalize()
        length, moves = board.config.win_length, len(board.moves)
        return f"{name} wins: {length} in a row after {moves} moves"
    if board.is_full:
        return "Draw: the board is full"
    name = COLOR_NAMES[int(board.to_move)].capitalize()
    return f"{name} to move (move {len(board.moves) + 1})"


def forbidden_points(board: Board) -> np.ndarray:
    """Empty points that the side to move may not play (renju's forbidden points).

    Read off the legal mask, so it marks whatever the rule forbids without knowing the
    rule; under freestyle and standard rules it is always empty.
    """
    if board.is_over:
        return np.zeros(0, dtype=np.int64)
    empty = board.cells == EMPTY
    return np.flatnonzero(empty & (board.legal_mask() == 0))
