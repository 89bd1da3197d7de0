"""ASCII diagrams of positions for the agent tests: X black, O white, . empty."""

from __future__ import annotations

import numpy as np

from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.kernels import BLACK, WHITE


def cells_from_diagram(
    rows: list[str], size: int = 15, top: int = 0, left: int = 0
) -> np.ndarray:
    """Flat int8 cells with the diagram's stones, its top-left corner at (top, left)."""
    cells = np.zeros(size * size, dtype=np.int8)
    for row, text in enumerate(rows):
        for col, char in enumerate(text.replace(" ", "")):
            point = (top + row) * size + left + col
            if char == "X":
                cells[point] = BLACK
            elif char == "O":
                cells[point] = WHITE
            elif char != ".":
                raise ValueError(f"bad diagram character {char!r}")
    return cells


def board_from_diagram(
    rows: list[str], config: GameConfig | None = None, top: int = 0, left: int = 0
) -> Board:
    """A Board holding the diagram's stones (black to move when counts are equal)."""
    config = config or GameConfig()
    cells = cells_from_diagram(rows, config.board_size, top, left)
    black = np.flatnonzero(cells == BLACK)
    white = np.flatnonzero(cells == WHITE)
    moves: list[int] = [0] * (black.size + white.size)
    moves[0::2] = [int(a) for a in black]
    moves[1::2] = [int(a) for a in white]
    return Board.with_stones(moves, config)
