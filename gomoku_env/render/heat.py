"""The heat-map layer: a translucent square per point, warm for positive values."""

from __future__ import annotations

import numpy as np
import pygame

from gomoku_env.render.geometry import BoardGeometry
from gomoku_env.render.theme import Theme

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
