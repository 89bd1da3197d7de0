"""How a board is drawn: the colours (a frozen :class:`Theme` users can restyle) and
the options (cell size, move numbers, coordinates).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gomoku_env.render.geometry import BoardGeometry

Color = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """The colours used to draw a board; every field is an (r, g, b) triple."""

    wood: Color = (220, 179, 92)
    wood_grain: Color = (206, 163, 78)
    grid: Color = (40, 30, 20)
    label: Color = (60, 40, 20)
    black_stone: Color = (28, 28, 30)
    black_highlight: Color = (125, 125, 132)
    white_stone: Color = (236, 236, 232)
    white_highlight: Color = (255, 255, 255)
    shadow: Color = (120, 90, 40)
    last_move: Color = (220, 40, 40)
    # The last move's number, when stones are numbered: a red that reads on each stone
    # (WCAG contrast of at least 4.5:1 against the stone; the last_move red does not).
    last_number_on_black: Color = (255, 128, 118)
    last_number_on_white: Color = (178, 16, 16)
    winning_line: Color = (230, 30, 30)
    forbidden: Color = (200, 20, 20)
    heat_positive: Color = (235, 60, 20)
    heat_negative: Color = (40, 90, 230)
    caption_background: Color = (45, 38, 30)
    caption_text: Color = (240, 232, 215)
    button: Color = (95, 75, 50)
    button_text: Color = (250, 242, 225)
    # A button that would do nothing now (Undo and Resign when no person plays).
    button_disabled: Color = (62, 54, 45)
    button_text_disabled: Color = (130, 122, 110)


DEFAULT_THEME = Theme()


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
