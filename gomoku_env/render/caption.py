"""The caption strip under the board: a status line or an overlay's text and value."""

from __future__ import annotations

import pygame

from gomoku_env.render.fonts import draw_text, elide, font
from gomoku_env.render.theme import Theme

VALUE_BAR_FRACTION = 0.28
TEXT_FRACTION = 0.6
"""Caption text height as a fraction of the strip's: fixed, so a long status line is
cut short with "…" rather than drawn smaller."""


def _draw_value_bar(strip: pygame.Surface, value: float, theme: Theme) -> int:
    """A bar centred on zero, filled to ``value``, and its number; the left edge."""
    width, height = strip.get_size()
    bar = pygame.Rect(0, 0, round(width * VALUE_BAR_FRACTION), max(6, height // 3))
    bar.midright = (width - height // 3, height // 2)
    fill_width = round(abs(value) * bar.width / 2)
    fill = pygame.Rect(bar.centerx, bar.top, fill_width, bar.height)
    if value < 0:
        fill.right = bar.centerx
    strip.fill(theme.heat_positive if value >= 0 else theme.heat_negative, fill)
    pygame.draw.rect(strip, theme.caption_text, bar, 1)
    top, bottom = bar.top - 2, bar.bottom + 1
    pygame.draw.line(
        strip, theme.caption_text, (bar.centerx, top), (bar.centerx, bottom)
    )
    text_size = round(height * 0.55)
    label = f"{value:+.2f}"
    label_width = font(text_size).size(label)[0]
    center = (bar.left - label_width / 2 - 6, height / 2)
    return draw_text(strip, label, text_size, theme.caption_text, center=center).left


def draw_caption(
    strip: pygame.Surface, text: str, value: float | None, theme: Theme
) -> None:
    """Fill the caption strip with ``text`` on the left and ``value`` as a bar.

    The text's size depends on the strip's height only; text too long for the strip
    ends in "…".
    """
    strip.fill(theme.caption_background)
    width, height = strip.get_size()
    if value is not None:
        width = _draw_value_bar(strip, value, theme)
    text_size = round(height * TEXT_FRACTION)
    start = (height / 3, height / 2)
    shown = elide(text, text_size, width - height / 3 - start[0])
    draw_text(strip, shown, text_size, theme.caption_text, left_middle=start)
