"""The renderer behind the env's ``render_mode="human"`` and ``"rgb_array"``.

This module imports no pygame itself: an env holds a :class:`BoardRenderer` from the
start, and pygame-ce is imported (with an error that says how to get it) only when a
picture is first drawn. Nothing in the rules core, the agents or an env without a
render mode imports pygame: PettingZoo checks that an env with ``render_mode=None``
never initialises it.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

import numpy as np
from gymnasium.error import DependencyNotInstalled

from gomoku_env.board import Board
from gomoku_env.errors import install_hint
from gomoku_env.render.overlay import Overlay
from gomoku_env.render.style import RenderOptions

INSTALL_HINT = install_hint("render")


def missing_display(program: str) -> str | None:
    """Why ``program`` cannot open a window here, or None when it can (as far as can be
    told before trying).

    On Linux and the BSDs a window needs an X or Wayland display; without one SDL
    falls back to an invisible offscreen window and the program would sit there
    unseen. A driver chosen on purpose (``SDL_VIDEODRIVER``, e.g. ``dummy`` for tests)
    is respected.
    """
    if os.environ.get("SDL_VIDEODRIVER") or not sys.platform.startswith(
        ("linux", "freebsd", "openbsd", "netbsd")
    ):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        f"{program} opens a window, and this session has no display (DISPLAY and "
        "WAYLAND_DISPLAY are unset): use 'gomoku serve --open' to play in a browser "
        "(over SSH, forward its port), or run it where there is a screen (ssh -X)"
    )


def import_pygame() -> ModuleType:
    """The ``pygame`` module (from pygame-ce), imported quietly on first use.

    Raises:
        DependencyNotInstalled: pygame is missing; the message says how to install it.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as error:
        raise DependencyNotInstalled(
            f"rendering Gomoku boards needs pygame-ce, which is not installed: "
            f"{INSTALL_HINT}"
        ) from error
    return pygame


PICTURE_MODES = ("human", "rgb_array")


def render_board(
    board: Board,
    overlay: Overlay | None = None,
    options: RenderOptions | None = None,
    caption: str | None = None,
) -> np.ndarray:
    """The picture of ``board`` as an (height, width, 3) uint8 array.

    >>> from gomoku_env import Board, GameConfig
    >>> render_board(Board(GameConfig(board_size=9))).shape
    (662, 604, 3)
    """
    import_pygame()
    from gomoku_env.render.scene import draw_scene, surface_to_array

    return surface_to_array(draw_scene(board, options, overlay, caption))


def render_legend(
    black: str, white: str, board_size: int, options: RenderOptions | None = None
) -> np.ndarray:
    """A strip naming the players beside a stone of each colour, as an (height, width,
    3) uint8 array as wide as the picture of a ``board_size`` board."""
    pygame = import_pygame()
    from gomoku_env.render.scene import surface_to_array
    from gomoku_env.render.text import draw_legend

    options = options or RenderOptions()
    geometry = options.geometry(board_size)
    strip = pygame.Surface((geometry.board_pixels, geometry.caption_height))
    draw_legend(strip, black, white, options.theme)
    return surface_to_array(strip)


class BoardRenderer:
    """Draws boards for one render mode: a window ("human") or arrays ("rgb_array").

    Args:
        render_mode: "human" or "rgb_array".
        fps: frames per second the window holds to in "human" mode.
        options: how boards are drawn.
    """

    def __init__(
        self, render_mode: str, fps: float = 2, options: RenderOptions | None = None
    ) -> None:
        if render_mode not in PICTURE_MODES:
            raise ValueError(
                f"unknown picture render_mode {render_mode!r}; expected one of "
                f"{PICTURE_MODES}"
            )
        self.render_mode = render_mode
        self.fps = fps
        self.options = options or RenderOptions()
        self.overlay: Overlay | None = None
        self._window = None

    def render(self, board: Board, caption: str | None = None) -> np.ndarray | None:
        """Draw ``board`` and the overlay: an array, or None after showing it."""
        if self.render_mode == "rgb_array":
            return render_board(board, self.overlay, self.options, caption)
        pygame = import_pygame()
        from gomoku_env.render.scene import draw_scene
        from gomoku_env.render.window import Window

        if self._window is None:
            self._window = Window("Gomoku", self.fps)
        self._window.show(draw_scene(board, self.options, self.overlay, caption))
        pygame.event.pump()
        return None

    def close(self) -> None:
        """Close the window if one was opened."""
        if self._window is not None:
            self._window.close()
            self._window = None
