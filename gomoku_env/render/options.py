"""How a board is drawn: cell size, move numbers, coordinates and colours."""

from __future__ import annotations

from dataclasses import dataclass, field

from gomoku_env.render.geometry import BoardGeometry
from gomoku_env.render.theme import DEFAULT_THEME, Theme


@dataclass(frozen=True)
class RenderOptions:
    """Drawing options shared by the env renderer, the GUI and the GIF writer.

    Attributes:
        cell_size: pixels between neighbouring lines; None picks a size that makes the
            board about 600 pixels wide whatever its number of lines.
        move_numbers: write each stone's move number on it.
        coordinates: letter the columns and number the rows around the board.
        theme: the colours.
    """

    cell_size: int | None = None
    move_numbers: bool = False
    coordinates: bool = True
    theme: Theme = field(default=DEFAULT_THEME)

    def geometry(self, board_size: int) -> BoardGeometry:
        """The pixel layout of a ``board_size`` board drawn with these options."""
        return BoardGeometry.for_board(board_size, self.cell_size)
