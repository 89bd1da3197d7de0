"""A whole picture of a position in layers: board, heat map, stones, marks, caption;
and the words and marks derived from the position (the status line, the forbidden
points).
"""

from __future__ import annotations

import numpy as np
import pygame

from gomoku_env.board import COLOR_NAMES, Board
from gomoku_env.kernels import EMPTY
from gomoku_env.notation import result_sentence
from gomoku_env.records import result_of
from gomoku_env.render.board_drawing import draw_stones, empty_board
from gomoku_env.render.markers import (
    draw_forbidden,
    draw_heatmap,
    draw_last_move,
    draw_move_numbers,
    draw_winning_line,
    draw_winning_rings,
)
from gomoku_env.render.overlay import Overlay
from gomoku_env.render.style import RenderOptions
from gomoku_env.render.text import draw_caption


def board_status(board: Board) -> str:
    """A one-line status: who is to move, or the result and why in the words of the
    GIF and the play window (:func:`~gomoku_env.notation.result_sentence`)."""
    result, reason = result_of(board)
    if result != "unfinished":
        return result_sentence(
            result,
            reason,
            moves=len(board.moves),
            win_length=board.config.win_length,
        )
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
    line = board.winning_line()
    if options.move_numbers:
        # Under the stones, so that it crosses none of the winners' numbers.
        draw_winning_line(surface, geometry, line, theme)
    stones = [(action, int(board.cells[action])) for action in board.moves]
    draw_stones(surface, geometry, stones, theme)
    draw_forbidden(surface, geometry, forbidden_points(board), theme)
    if options.move_numbers:
        draw_winning_rings(surface, geometry, line, theme)
        draw_move_numbers(surface, geometry, board.moves, theme)
        return
    if board.last_move is not None:
        draw_last_move(surface, geometry, board.last_move, theme)
    draw_winning_line(surface, geometry, line, theme)
    draw_winning_rings(surface, geometry, line, theme)


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
