"""The board drawn in characters: the envs' ``"ansi"`` render mode.

Rows are numbered and columns lettered as in :mod:`gomoku_env.notation`. This lives apart
from the notation because it reads a :class:`~gomoku_env.board.Board`, and the board's
legality rules word their errors in notation: imports run board → notation, never back.
"""

from __future__ import annotations

from gomoku_env.board import Board
from gomoku_env.kernels import BLACK, WHITE
from gomoku_env.notation import COLUMN_LETTERS

STONE_SYMBOLS = {0: ".", BLACK: "X", WHITE: "O"}


def _cell_text(symbol: str, is_last: bool, is_winning: bool) -> str:
    if is_last:
        return f"[{symbol}]"
    if is_winning:
        return f"({symbol})"
    return f" {symbol} "


def render_text(board: Board) -> str:
    """The board as text: X black, O white, [X] the last move, (X) the winning line.

    Rows are numbered from the bottom and columns lettered from the left, as in standard
    notation, so a point read off the picture can be typed back as a move.
    """
    size = board.size
    winning = set(board.winning_line())
    last = board.last_move
    header = "    " + "".join(f" {letter} " for letter in COLUMN_LETTERS[:size])
    lines = [header]
    for row in range(size):
        number = size - row
        cells = "".join(
            _cell_text(
                STONE_SYMBOLS[int(board.cells[action])],
                action == last,
                action in winning,
            )
            for action in range(row * size, (row + 1) * size)
        )
        lines.append(f"{number:>3} {cells} {number}")
    lines.append(header)
    return "\n".join(lines)
