"""A pygame window opened on first use and closed by :meth:`Window.close`."""

from __future__ import annotations

import pygame


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
        pygame.display.set_caption(self.title)
        self._screen = pygame.display.set_mode(size)
        self._clock = self._clock or pygame.time.Clock()
