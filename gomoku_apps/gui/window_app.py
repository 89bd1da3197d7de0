"""The event loop shared by the play and replay windows: board picture plus buttons.

Subclasses say what the buttons do (:meth:`WindowApp.do`), what a click on a point
does (:meth:`WindowApp.click`), what changes between frames (:meth:`WindowApp.update`)
and what to draw (:meth:`WindowApp.scene`). :meth:`WindowApp.frame` runs one turn of
the loop, so a test can post pygame events and step the window frame by frame.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import pygame

from gomoku_apps.gui.buttons import BAR_HEIGHT, Button, ButtonBar
from gomoku_env.board import Board
from gomoku_env.render.scene import draw_scene
from gomoku_env.render.style import RenderOptions
from gomoku_env.render.window import Window

QUIT_KEYS = (pygame.K_ESCAPE, pygame.K_q)


class WindowApp(ABC):
    """A window showing one board with a caption and a bar of buttons under it."""

    def __init__(
        self,
        buttons: list[Button],
        board_size: int,
        options: RenderOptions | None = None,
        fps: float = 30,
        title: str = "Gomoku",
    ) -> None:
        self.options = options or RenderOptions()
        self.geometry = self.options.geometry(board_size)
        width, height = self.geometry.image_size
        self.bar = ButtonBar(buttons, width, height)
        self.size = (width, height + BAR_HEIGHT)
        self.window = Window(title, fps)
        self.running = True

    @abstractmethod
    def do(self, command: str) -> None:
        """Carry out a button's command."""

    def click(self, action: int) -> None:  # noqa: B027 - optional hook, no-op by default
        """React to a click on the point ``action``."""

    def update(self) -> None:  # noqa: B027 - optional hook, no-op by default
        """Advance whatever moves on its own between frames."""

    @abstractmethod
    def scene(self) -> tuple[Board, str]:
        """The board to show and its caption."""

    def disabled_commands(self) -> frozenset[str]:
        """The buttons that would do nothing now, drawn greyed out; none by default."""
        return frozenset()

    def point_position(self, action: int) -> tuple[int, int]:
        """Window pixel of the point ``action`` (for scripted sessions and tests)."""
        return self.geometry.point_center(action)

    def button_position(self, command: str) -> tuple[int, int]:
        """Window pixel of the middle of ``command``'s button."""
        return self.bar.center_of(command)

    def frame(self) -> bool:
        """Draw, handle the pending events, update; False once the window was closed."""
        if not self.running:
            return False
        self._draw()
        for event in pygame.event.get():
            self._handle(event)
            if not self.running:
                break
        if self.running:
            self.update()
        return self.running

    def run(self, max_frames: int | None = None) -> None:
        """Run until the window is closed (or ``max_frames`` frames), then close it."""
        frames = 0
        try:
            while self.frame() and (max_frames is None or frames < max_frames):
                frames += 1
        finally:
            self.close()

    def close(self) -> None:
        """Close the window."""
        self.running = False
        self.window.close()

    def _handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            if event.key in QUIT_KEYS:
                self.running = False
            elif (command := self.bar.command_for_key(event.key)) is not None:
                self.do(command)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._handle_click(event.pos)

    def _handle_click(self, position: tuple[int, int]) -> None:
        command = self.bar.command_at(position)
        if command is not None:
            self.do(command)
        elif position[1] < self.geometry.board_pixels:
            action = self.geometry.action_at(*position)
            if action is not None:
                self.click(action)

    def _draw(self) -> None:
        board, caption = self.scene()
        surface = pygame.Surface(self.size)
        surface.blit(draw_scene(board, self.options, caption=caption), (0, 0))
        self.bar.draw(surface, self.options.theme, self.disabled_commands())
        self.window.show(surface)
