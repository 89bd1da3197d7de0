"""Text on the picture, with pygame's bundled font (no system fonts): fonts by pixel
size created once and drawn by FreeType with kerning (``pygame.font`` spaces some
letter pairs unevenly at small sizes, "mct s"), the caption strip under the board (a
status line or an overlay's text and value), and the players' legend over a game's
pictures (a stone of each colour and who plays it, so a GIF's viewer knows who is who
without the record).
"""

from __future__ import annotations

import functools

import pygame

from gomoku_env.render.style import Theme

DEFAULT_FONT_SCALE = 0.6875
"""pygame.font draws its default font at this fraction of the size asked for; the
FreeType font is asked for the same, so every layout keeps its measures."""


class Font:
    """pygame's default font at one size, drawn by FreeType with kerning: the two
    calls the drawing code makes, ``size(text)`` and ``render(text, antialias,
    color)``, as ``pygame.font.Font`` has them."""

    def __init__(self, size: int) -> None:
        import pygame.freetype

        if not pygame.freetype.get_init():
            pygame.freetype.init()
        self._face = pygame.freetype.Font(None, round(size * DEFAULT_FONT_SCALE))
        self._face.kerning = True
        self._face.pad = True  # the line's full height, as pygame.font gives it

    def size(self, text: str) -> tuple[int, int]:
        """The width and height of ``text`` drawn in this font, in pixels."""
        rect = self._face.get_rect(text)
        return rect.width, rect.height

    def render(
        self, text: str, antialias: bool, color: tuple[int, int, int]
    ) -> pygame.Surface:
        """``text`` drawn on a transparent surface of its size."""
        self._face.antialiased = antialias
        image, _ = self._face.render(text, fgcolor=color)
        return image


@functools.lru_cache(maxsize=64)
def font(size: int) -> Font:
    """pygame's default font at ``size`` pixels, created once per size."""
    return Font(max(8, int(size)))


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


DRAWN_CHARACTERS = 300
"""Characters of one line ever measured or drawn: no picture is wide enough for more,
and measuring a longer text (a name of 50 000 characters) would cost its length."""


def _fits(text: str, size: int, width: float) -> bool:
    return font(size).size(text)[0] <= width


def elide(text: str, size: int, width: float) -> str:
    """``text``, cut and ended with "…" if needed, so that it fits ``width`` pixels at
    ``size``: status lines keep one font size whatever they say.

    The text is first cut to :data:`DRAWN_CHARACTERS`, then the longest prefix that
    fits is found by bisection, so the cost is a few measurements of a short text
    whatever the length of ``text``.
    """
    shown = text[:DRAWN_CHARACTERS]
    if shown == text and _fits(text, size, width):
        return text
    kept, too_many = 0, len(shown)
    while kept < too_many:  # the longest prefix of ``shown`` that fits with "…"
        middle = (kept + too_many + 1) // 2
        if _fits(shown[:middle] + "…", size, width):
            kept = middle
        else:
            too_many = middle - 1
    return shown[:kept].rstrip() + "…"


def fitting_size(text: str, size: int, width: float, smallest: int = 10) -> int:
    """The largest font size up to ``size`` at which ``text`` fits ``width`` pixels
    (``text`` measured up to :data:`DRAWN_CHARACTERS`)."""
    text = text[:DRAWN_CHARACTERS]
    while size > smallest and not _fits(text, size, width):
        size -= 1
    return size


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
