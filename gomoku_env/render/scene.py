"""A whole picture of a position in layers: board, heat map, stones, marks, caption."""

from __future__ import annotations

import numpy as np
import pygame

from gomoku_env.board import Board
from gomoku_env.render.board_drawing import empty_board
from gomoku_env.render.caption import draw_caption
from gomoku_env.render.heat import draw_heatmap
from gomoku_env.render.markers import (
    draw_forbidden,
    draw_last_move,
    draw_move_numbers,
    draw_winning_line,
)
from gomoku_env.render.options import RenderOptions
from gomoku_env.render.overlay import Overlay
from gomoku_env.render.status import board_status, forbidden_points
from gomoku_env.render.stones import draw_stones


def _draw_position(
    surface: pygame.Surface,
    board: Board,
    options: RenderOptions,
    overlay: Overlay | None,
) -> None:
    geometry, theme = options.geometry(board.size), options.theme
    heat = overlay.heat_for(board.size) if overlay is not None else None
    if heat is not None:
        draw_heatmap(surface, geometry, heat, theme)
    stones = [(action, int(board.cells[action])) for action in board.moves]
    draw_stones(surface, geometry, stones, theme)
    draw_forbidden(surface, geometry, forbidden_points(board), theme)
    if options.move_numbers:
        draw_move_numbers(surface, geometry, board.moves, theme)
    elif board.last_move is not None:
        draw_last_move(surface, geometry, board.last_move, theme)
    draw_winning_line(surface, geometry, board.winning_line(), theme)


def draw_scene(
    board: Board,
    options: RenderOptions | None = None,
    overlay: Overlay | None = None,
    caption: str | None = None,
) -> pygame.Surface:
    """The picture of ``board``: the board above a caption strip.

    The caption shows, in order of preference, the overlay's text, ``caption``, or the
    board's own status line (whose turn, or the result).
    """
    options = options or RenderOptions()
    geometry = options.geometry(board.size)
    surface = pygame.Surface(geometry.image_size)
    board_area = surface.subsurface(
        (0, 0, geometry.board_pixels, geometry.board_pixels)
    )
    board_area.blit(empty_board(geometry, options.theme, options.coordinates), (0, 0))
    _draw_position(board_area, board, options, overlay)
    strip = surface.subsurface(
        (0, geometry.board_pixels, geometry.board_pixels, geometry.caption_height)
    )
    text = (
        (overlay.text if overlay is not None else None)
        or caption
        or board_status(board)
    )
    draw_caption(
        strip, text, overlay.value if overlay is not None else None, options.theme
    )
    return surface


def surface_to_array(surface: pygame.Surface) -> np.ndarray:
    """The surface's pixels as an (height, width, 3) uint8 array (row 0 at the top)."""
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))
