"""The players' legend over a game's pictures: a stone of each colour and who plays it.

GIFs of games carry it on every frame, so a viewer knows who is black and who is white
without the game record.
"""

from __future__ import annotations

import pygame

from gomoku_env.render.caption import TEXT_FRACTION
from gomoku_env.render.fonts import draw_text, elide
from gomoku_env.render.theme import Theme


def draw_legend(strip: pygame.Surface, black: str, white: str, theme: Theme) -> None:
    """Fill ``strip`` with "(stone) black: NAME" on its left half and "(stone) white:
    NAME" on its right half; a name too long for its half ends in "…"."""
    strip.fill(theme.caption_background)
    width, height = strip.get_size()
    half = width / 2
    radius = max(4, round(height * 0.28))
    text_size = round(height * TEXT_FRACTION)
    players = (("black", black, theme.black_stone), ("white", white, theme.white_stone))
    for index, (color_name, name, stone) in enumerate(players):
        left = index * half + height / 3
        center = (round(left + radius), round(height / 2))
        pygame.draw.circle(strip, stone, center, radius)
        pygame.draw.circle(strip, theme.caption_text, center, radius, 1)
        text_left = left + 2 * radius + height / 4
        room = (index + 1) * half - text_left - height / 4
        label = elide(f"{color_name}: {name}", text_size, room)
        draw_text(
            strip,
            label,
            text_size,
            theme.caption_text,
            left_middle=(text_left, height / 2),
        )
