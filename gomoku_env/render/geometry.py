"""Where things go on the picture: pixel positions of points, labels and the caption.

Pure arithmetic, no pygame, so the GUI's hit testing and the tests can use it without a
display. The picture is the board (a margin for the coordinates on each side, then
``board_size - 1`` cells between the outer lines) above a caption strip for the status
line or an overlay's text.
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku_env.config import MAX_BOARD_SIZE, MIN_BOARD_SIZE
from gomoku_env.kernels import centre_point

TARGET_BOARD_PIXELS = 600
MIN_CELL_PIXELS = 16
MAX_CELL_PIXELS = 64
MIN_AUTO_CELL_PIXELS = 22
MARGIN_CELLS = 1.2
MAX_AUTO_CELL_PIXELS = 60


def default_cell_size(board_size: int) -> int:
    """A cell size that makes boards of any size about 600 pixels wide."""
    cell = round(TARGET_BOARD_PIXELS / (board_size - 1 + 2 * MARGIN_CELLS))
    return max(MIN_AUTO_CELL_PIXELS, min(MAX_AUTO_CELL_PIXELS, cell))


@dataclass(frozen=True)
class BoardGeometry:
    """Pixel layout of a ``board_size`` board drawn with ``cell_size`` pixels per cell.

    >>> geometry = BoardGeometry(board_size=15, cell_size=40)
    >>> geometry.point_center(112)
    (328, 328)
    >>> geometry.action_at(329, 326)
    112
    """

    board_size: int
    cell_size: int

    def __post_init__(self) -> None:
        if not MIN_BOARD_SIZE <= self.board_size <= MAX_BOARD_SIZE:
            raise ValueError(
                f"board_size must be between {MIN_BOARD_SIZE} and {MAX_BOARD_SIZE}, "
                f"got {self.board_size!r}"
            )
        if not MIN_CELL_PIXELS <= self.cell_size <= MAX_CELL_PIXELS:
            raise ValueError(
                f"cell_size must be between {MIN_CELL_PIXELS} and {MAX_CELL_PIXELS} "
                f"pixels, got {self.cell_size!r}"
            )

    @classmethod
    def for_board(cls, board_size: int, cell_size: int | None = None) -> BoardGeometry:
        """The geometry for ``board_size``, with the default cell size unless given."""
        return cls(board_size, cell_size or default_cell_size(board_size))

    @property
    def margin(self) -> int:
        """Pixels from the picture's edge to the outer lines: room for the labels."""
        return round(self.cell_size * MARGIN_CELLS)

    @property
    def board_pixels(self) -> int:
        """Width and height of the board part of the picture."""
        return 2 * self.margin + (self.board_size - 1) * self.cell_size

    @property
    def caption_height(self) -> int:
        """Height of the caption strip under the board."""
        return max(24, self.cell_size)

    @property
    def image_size(self) -> tuple[int, int]:
        """(width, height) of the whole picture: the board and the caption strip."""
        return self.board_pixels, self.board_pixels + self.caption_height

    @property
    def stone_radius(self) -> int:
        """Radius of a stone: just under half a cell so neighbours do not touch."""
        return max(3, round(self.cell_size * 0.46))

    def point_center(self, action: int) -> tuple[int, int]:
        """(x, y) pixel of the intersection for ``action`` (row 0 at the top)."""
        row, col = divmod(int(action), self.board_size)
        return self.margin + col * self.cell_size, self.margin + row * self.cell_size

    def action_at(self, x: float, y: float) -> int | None:
        """The action whose intersection is within half a cell of (x, y), else None."""
        col = round((x - self.margin) / self.cell_size)
        row = round((y - self.margin) / self.cell_size)
        if not (0 <= col < self.board_size and 0 <= row < self.board_size):
            return None
        return row * self.board_size + col

    def star_points(self) -> list[int]:
        """Actions of the star points: corners, centre and, on big boards, sides."""
        size = self.board_size
        offset = 3 if size >= 13 else 2
        lines = [offset, size - 1 - offset] if size >= 9 else []
        if size >= 19:
            lines.insert(1, size // 2)
        points = {row * size + col for row in lines for col in lines}
        if size % 2 == 1 and size >= 7:
            points.add(centre_point(size))
        return sorted(points)
