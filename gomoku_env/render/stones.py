"""Shaded stones: a soft shadow and a radial highlight, drawn once per size."""

from __future__ import annotations

import functools
from collections.abc import Iterable

import pygame

from gomoku_env.kernels import BLACK
from gomoku_env.render.geometry import BoardGeometry
from gomoku_env.render.theme import Color, Theme

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
