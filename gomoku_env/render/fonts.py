"""Fonts by pixel size, created once: pygame's bundled font, so no system fonts."""

from __future__ import annotations

import functools

import pygame


@functools.lru_cache(maxsize=64)
def font(size: int) -> pygame.font.Font:
    """pygame's default font at ``size`` pixels (starts the font module if needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, max(8, int(size)))


def draw_text(
    surface: pygame.Surface,
    text: str,
    size: int,
    color: tuple[int, int, int],
    center: tuple[float, float] | None = None,
    left_middle: tuple[float, float] | None = None,
) -> pygame.Rect:
    """Draw ``text`` centred on ``center`` or starting at ``left_middle``; its rect."""
    image = font(size).render(text, True, color)
    rect = image.get_rect()
    if center is not None:
        rect.center = (round(center[0]), round(center[1]))
    elif left_middle is not None:
        rect.midleft = (round(left_middle[0]), round(left_middle[1]))
    surface.blit(image, rect)
    return rect


def elide(text: str, size: int, width: float) -> str:
    """``text``, cut and ended with "…" if needed, so that it fits ``width`` pixels at
    ``size``: status lines keep one font size whatever they say."""
    if font(size).size(text)[0] <= width:
        return text
    while text and font(size).size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fitting_size(text: str, size: int, width: float, smallest: int = 10) -> int:
    """The largest font size up to ``size`` at which ``text`` fits ``width`` pixels."""
    while size > smallest and font(size).size(text)[0] > width:
        size -= 1
    return size
