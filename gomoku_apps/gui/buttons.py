"""A row of buttons under the board, each with a keyboard shortcut."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import pygame

from gomoku_env.render.style import Color, Theme
from gomoku_env.render.text import draw_text, fitting_size

BAR_HEIGHT = 44
GAP = 6


@dataclass(frozen=True)
class Button:
    """A command, its label and the key that does the same (a pygame key name)."""

    command: str
    label: str
    key: str

    @property
    def caption(self) -> str:
        """What the button shows, one style for every window: "Undo [U]", "First [Home]"."""
        key = self.key.upper() if len(self.key) == 1 else self.key.capitalize()
        return f"{self.label} [{key}]"


class ButtonBar:
    """Buttons left to right in a bar ``width`` pixels wide, its top at ``top``."""

    def __init__(self, buttons: list[Button], width: int, top: int) -> None:
        self.buttons = buttons
        self.top = top
        count = len(buttons)
        button_width = (width - GAP * (count + 1)) // count
        self.rects = [
            pygame.Rect(
                GAP + index * (button_width + GAP),
                top + GAP,
                button_width,
                BAR_HEIGHT - 2 * GAP,
            )
            for index in range(count)
        ]

    def command_at(self, position: tuple[int, int]) -> str | None:
        """The command of the button under ``position``, if any."""
        for button, rect in zip(self.buttons, self.rects, strict=True):
            if rect.collidepoint(position):
                return button.command
        return None

    def command_for_key(self, key: int) -> str | None:
        """The command whose shortcut is the pygame key code ``key``, if any."""
        for button in self.buttons:
            if pygame.key.key_code(button.key) == key:
                return button.command
        return None

    def center_of(self, command: str) -> tuple[int, int]:
        """The pixel at the middle of ``command``'s button (for scripted sessions)."""
        for button, rect in zip(self.buttons, self.rects, strict=True):
            if button.command == command:
                return rect.center
        raise ValueError(f"no button for command {command!r}")

    def draw(
        self,
        surface: pygame.Surface,
        theme: Theme,
        disabled: Collection[str] = (),
    ) -> None:
        """Draw the bar and its buttons, each labelled with its key; the commands in
        ``disabled`` (which would do nothing now) greyed out."""
        surface.fill(
            theme.caption_background, (0, self.top, surface.get_width(), BAR_HEIGHT)
        )
        labels = [button.caption for button in self.buttons]
        width = self.rects[0].width - 6
        text_size = min(fitting_size(label, BAR_HEIGHT // 2, width) for label in labels)
        for button, rect in zip(self.buttons, self.rects, strict=True):
            fill, text = button_colors(button.command in disabled, theme)
            pygame.draw.rect(surface, fill, rect, border_radius=6)
            draw_text(surface, button.caption, text_size, text, center=rect.center)


def button_colors(disabled: bool, theme: Theme) -> tuple[Color, Color]:
    """(fill, text) colours of a button, enabled or greyed out."""
    if disabled:
        return theme.button_disabled, theme.button_text_disabled
    return theme.button, theme.button_text
