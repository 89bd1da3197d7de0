"""Build boards from ASCII diagrams, so test positions read like the board they describe.

A diagram has one line per row, top row first, one character per point: ``X`` black,
``O`` white, ``.`` empty (spaces are ignored). Move order interleaves the stones, which
is all the rules need.
"""

from __future__ import annotations

import numpy as np

from gomoku_env import Board, GameConfig


def diagram_cells(diagram: str) -> np.ndarray:
    """The flat cell array (0 empty, 1 black, 2 white) of a diagram."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    codes = {".": 0, "X": 1, "O": 2}
    return np.array([codes[char] for row in rows for char in row], dtype=np.int8)


def board_from_diagram(diagram: str, config: GameConfig) -> Board:
    """A board holding the diagram's stones, black to move if counts are equal."""
    cells = diagram_cells(diagram)
    assert cells.size == config.cells, "diagram does not match the board size"
    black = list(np.flatnonzero(cells == 1))
    white = list(np.flatnonzero(cells == 2))
    moves = [None] * (len(black) + len(white))
    moves[0::2] = black
    moves[1::2] = white
    return Board.with_stones([int(move) for move in moves], config)
