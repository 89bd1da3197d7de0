"""Marks over the board: the heat map (a translucent square per point, warm for
positive values), the last move, the winning line, move numbers, forbidden points.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pygame

from gomoku_env.render.geometry import BoardGeometry
from gomoku_env.render.style import Theme
from gomoku_env.render.text import draw_text

MIN_VISIBLE = 0.01
MIN_ALPHA = 40
ALPHA_RANGE = 180


def draw_heatmap(
    surface: pygame.Surface, geometry: BoardGeometry, heat: np.ndarray, theme: Theme
) -> None:
    """Draw ``heat`` (values in [-1, 1], one per point) under the stones."""
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    side = geometry.cell_size - 2
    for action in np.flatnonzero(np.abs(heat) >= MIN_VISIBLE):
        value = float(heat[action])
        base = theme.heat_positive if value > 0 else theme.heat_negative
        alpha = MIN_ALPHA + round(ALPHA_RANGE * abs(value))
        square = pygame.Rect(0, 0, side, side)
        square.center = geometry.point_center(int(action))
        pygame.draw.rect(layer, (*base, alpha), square, border_radius=side // 4)
    surface.blit(layer, (0, 0))


def draw_last_move(
    surface: pygame.Surface, geometry: BoardGeometry, action: int, theme: Theme
) -> None:
    """A red dot in the middle of the stone just played."""
    radius = max(2, round(geometry.stone_radius * 0.3))
    pygame.draw.circle(surface, theme.last_move, geometry.point_center(action), radius)


def draw_winning_line(
    surface: pygame.Surface, geometry: BoardGeometry, line: Sequence[int], theme: Theme
) -> None:
    """A thick line from the first winning stone's centre to the last one's."""
    if not line:
        return
    width = max(3, geometry.cell_size // 8)
    start, end = geometry.point_center(line[0]), geometry.point_center(line[-1])
    pygame.draw.line(surface, theme.winning_line, start, end, width)


def draw_winning_rings(
    surface: pygame.Surface, geometry: BoardGeometry, line: Sequence[int], theme: Theme
) -> None:
    """A ring around the edge of each winning stone (it leaves the middle free)."""
    for action in line:
        center = geometry.point_center(action)
        pygame.draw.circle(
            surface, theme.winning_line, center, geometry.stone_radius, 2
        )


def draw_move_numbers(
    surface: pygame.Surface,
    geometry: BoardGeometry,
    moves: Sequence[int],
    theme: Theme,
) -> None:
    """Each stone's move number, in the colour of the other stones; the last in red."""
    for index, action in enumerate(moves):
        label = str(index + 1)
        size = round(geometry.cell_size * (0.5 if len(label) < 3 else 0.38))
        color = move_number_color(index % 2 == 0, index == len(moves) - 1, theme)
        draw_text(surface, label, size, color, center=geometry.point_center(action))


def move_number_color(on_black: bool, last: bool, theme: Theme) -> tuple[int, int, int]:
    """The colour of a move number on a black or a white stone (red for the last)."""
    if last:
        return theme.last_number_on_black if on_black else theme.last_number_on_white
    return theme.white_stone if on_black else theme.black_stone


def draw_forbidden(
    surface: pygame.Surface,
    geometry: BoardGeometry,
    points: Sequence[int],
    theme: Theme,
) -> None:
    """A small red cross on each point the side to move may not play."""
    arm = max(3, geometry.cell_size // 5)
    width = max(2, geometry.cell_size // 14)
    for action in points:
        x, y = geometry.point_center(int(action))
        pygame.draw.line(
            surface, theme.forbidden, (x - arm, y - arm), (x + arm, y + arm), width
        )
        pygame.draw.line(
            surface, theme.forbidden, (x - arm, y + arm), (x + arm, y - arm), width
        )
