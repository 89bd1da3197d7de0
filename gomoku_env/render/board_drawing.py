"""The empty board: wood, grid lines, star points and coordinates.

It depends only on the geometry and the theme, so it is drawn once per layout and copied
for every frame.
"""

from __future__ import annotations

import functools

import pygame

from gomoku_env.notation import COLUMN_LETTERS
from gomoku_env.render.fonts import draw_text
from gomoku_env.render.geometry import BoardGeometry
from gomoku_env.render.theme import Theme

GRAIN_PERIOD = 7


def _draw_wood(surface: pygame.Surface, theme: Theme) -> None:
    surface.fill(theme.wood)
    width, height = surface.get_size()
    for y in range(0, height, GRAIN_PERIOD):
        thickness = 1 + (y * 7 // GRAIN_PERIOD) % 3
        pygame.draw.line(surface, theme.wood_grain, (0, y), (width, y), thickness)


def _draw_grid(surface: pygame.Surface, geometry: BoardGeometry, theme: Theme) -> None:
    first = geometry.margin
    last = geometry.margin + (geometry.board_size - 1) * geometry.cell_size
    for index in range(geometry.board_size):
        offset = first + index * geometry.cell_size
        pygame.draw.line(surface, theme.grid, (offset, first), (offset, last), 1)
        pygame.draw.line(surface, theme.grid, (first, offset), (last, offset), 1)
    border = pygame.Rect(first, first, last - first + 1, last - first + 1)
    pygame.draw.rect(surface, theme.grid, border.inflate(2, 2), 2)
    radius = max(2, geometry.cell_size // 9)
    for action in geometry.star_points():
        pygame.draw.circle(surface, theme.grid, geometry.point_center(action), radius)


def _draw_coordinates(
    surface: pygame.Surface, geometry: BoardGeometry, theme: Theme
) -> None:
    size = geometry.board_size
    text_size = max(10, round(geometry.cell_size * 0.5))
    near = (geometry.margin - geometry.stone_radius) / 2
    far = geometry.board_pixels - near
    for index in range(size):
        x, y = geometry.point_center(index * size + index)
        letter, number = COLUMN_LETTERS[index], str(size - index)
        for edge in (near, far):
            draw_text(surface, letter, text_size, theme.label, center=(x, edge))
            draw_text(surface, number, text_size, theme.label, center=(edge, y))


@functools.lru_cache(maxsize=8)
def empty_board(
    geometry: BoardGeometry, theme: Theme, coordinates: bool
) -> pygame.Surface:
    """The empty board picture for this layout (cached: never draw on it)."""
    side = geometry.board_pixels
    surface = pygame.Surface((side, side))
    _draw_wood(surface, theme)
    _draw_grid(surface, geometry, theme)
    if coordinates:
        _draw_coordinates(surface, geometry, theme)
    return surface
