"""Pictures of Gomoku positions with pygame-ce: a wooden board, shaded stones, overlays.

Importing this package does not import pygame; drawing does, on first use. The pieces:

- :func:`render_board`: one position as an (H, W, 3) uint8 array.
- :class:`BoardRenderer`: the env's ``"human"`` (window) and ``"rgb_array"`` modes.
- :class:`Overlay`: a heat map (policy, visit counts) and a value or text caption.
- :class:`RenderOptions`: cell size, move numbers, coordinates, :class:`Theme` colours.
- :func:`save_gif`: a whole game as an animated GIF, one frame per move.
"""

from gomoku_env.render.geometry import BoardGeometry
from gomoku_env.render.gif import game_frames, save_gif
from gomoku_env.render.overlay import Overlay
from gomoku_env.render.renderer import BoardRenderer, render_board
from gomoku_env.render.style import DEFAULT_THEME, RenderOptions, Theme

__all__ = [
    "DEFAULT_THEME",
    "BoardGeometry",
    "BoardRenderer",
    "Overlay",
    "RenderOptions",
    "Theme",
    "game_frames",
    "render_board",
    "save_gif",
]
