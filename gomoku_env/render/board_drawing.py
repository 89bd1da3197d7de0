"""The board and its stones: wood, grid lines, star points and coordinates (drawn
once per layout and copied for every frame), and shaded stones (a soft shadow and a
radial highlight, drawn once per size).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import pygame

from gomoku_env.kernels import BLACK
from gomoku_env.notation import COLUMN_LETTERS
from gomoku_env.render.geometry import BoardGeometry
from gomoku_env.render.style import Color, Theme
from gomoku_env.render.text import draw_text

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


SHADOW_ALPHA = 90
HIGHLIGHT_SHIFT = 0.35


def _blend(start: Color, end: Color, fraction: float) -> Color:
    return tuple(round(a + (b - a) * fraction) for a, b in zip(start, end, strict=True))


def _draw_body(
    sprite: pygame.Surface, center: float, radius: int, base: Color, light: Color
) -> None:
    steps = max(6, radius // 2)
    for step in range(steps):
        fraction = step / steps
        shift = -HIGHLIGHT_SHIFT * radius * fraction
        ring_radius = radius * (1.0 - 0.8 * fraction)
        color = _blend(base, light, fraction**1.6)
        pygame.draw.circle(sprite, color, (center + shift, center + shift), ring_radius)


@functools.lru_cache(maxsize=32)
def stone_sprite(color: int, radius: int, theme: Theme) -> pygame.Surface:
    """A stone of ``color`` and its shadow on a transparent square (2·radius+4)."""
    side = 2 * radius + 4
    sprite = pygame.Surface((side, side), pygame.SRCALPHA)
    center = radius + 1
    shadow_offset = max(1, radius // 8)
    pygame.draw.circle(
        sprite, (*theme.shadow, SHADOW_ALPHA), (center + shadow_offset,) * 2, radius
    )
    if color == BLACK:
        base, light, outline = (
            theme.black_stone,
            theme.black_highlight,
            theme.black_stone,
        )
    else:
        base, light, outline = theme.white_stone, theme.white_highlight, theme.shadow
    pygame.draw.circle(sprite, base, (center, center), radius)
    _draw_body(sprite, center, radius, base, light)
    pygame.draw.circle(sprite, outline, (center, center), radius, 1)
    return sprite


def draw_stones(
    surface: pygame.Surface,
    geometry: BoardGeometry,
    stones: Iterable[tuple[int, int]],
    theme: Theme,
) -> None:
    """Draw each (action, colour) stone centred on its point."""
    radius = geometry.stone_radius
    for action, color in stones:
        x, y = geometry.point_center(action)
        surface.blit(
            stone_sprite(int(color), radius, theme), (x - radius - 1, y - radius - 1)
        )
