"""Import pygame-ce only when something is drawn, with an error that says how to get it.

Nothing in the rules core, the agents or an env without a render mode imports pygame:
PettingZoo checks that an env with ``render_mode=None`` never initialises it.
"""

from __future__ import annotations

import os
from types import ModuleType

from gymnasium.error import DependencyNotInstalled

INSTALL_HINT = "pip install 'gomoku_env[render]' (or: pip install pygame-ce pillow)"


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
