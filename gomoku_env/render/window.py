"""A pygame window opened on first use and closed by :meth:`Window.close`."""

from __future__ import annotations

import os

import pygame

INVISIBLE_DRIVERS = ("offscreen", "dummy")
"""SDL video drivers that show nothing: chosen on purpose (``SDL_VIDEODRIVER``) for
tests and pictures, and SDL's fallback when no display can be opened."""


class DisplayUnavailableError(ValueError):
    """A window was asked for, and SDL could open none (it fell back to a driver
    that shows nothing)."""


def display_names() -> str:
    """The display variables of this session, as the error names them."""
    names = [
        f"{key}={os.environ[key]}"
        for key in ("DISPLAY", "WAYLAND_DISPLAY")
        if os.environ.get(key)
    ]
    return ", ".join(names) or "no DISPLAY"


class Window:
    """One on-screen window showing prepared pictures at up to ``fps`` frames a second.

    The display is created by the first :meth:`show` (never before, so constructing an
    env or an app costs nothing), resized when the picture's size changes, and released
    by :meth:`close`.
    """

    def __init__(self, title: str = "Gomoku", fps: float = 30) -> None:
        if not fps > 0:
            raise ValueError(f"fps must be a positive number, got {fps!r}")
        self.title = title
        self.fps = fps
        self._screen: pygame.Surface | None = None
        self._clock: pygame.time.Clock | None = None

    @property
    def is_open(self) -> bool:
        """Whether the window is on screen."""
        return self._screen is not None

    def show(self, picture: pygame.Surface, wait: bool = True) -> None:
        """Put ``picture`` on screen; with ``wait``, hold to the frame rate."""
        if self._screen is None or self._screen.get_size() != picture.get_size():
            self._open(picture.get_size())
        self._screen.blit(picture, (0, 0))
        pygame.display.flip()
        if wait:
            self._clock.tick(self.fps)

    def close(self) -> None:
        """Close the window (a no-op when it was never opened)."""
        if self._screen is not None:
            pygame.display.quit()
            self._screen = None
            self._clock = None

    def _open(self, size: tuple[int, int]) -> None:
        pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in INVISIBLE_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
            pygame.display.quit()
            raise DisplayUnavailableError(
                f"no window could be opened on this display ({display_names()}): "
                f"SDL fell back to its invisible {driver!r} driver. Check the display "
                "(a stale DISPLAY after a closed SSH session?), or use 'gomoku serve "
                "--open' to play in a browser"
            )
        pygame.display.set_caption(self.title)
        self._screen = pygame.display.set_mode(size)
        self._clock = self._clock or pygame.time.Clock()
