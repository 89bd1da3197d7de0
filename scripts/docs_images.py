"""Regenerate the pictures in docs/: the play window, an overlay and a game GIF.

Run with ``SDL_VIDEODRIVER=dummy .venv/bin/python scripts/docs_images.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pygame
from PIL import Image

from gomoku_apps.gui.play_app import PlayApp
from gomoku_apps.gui.session import GameSession, Seat
from gomoku_env import Board, GameConfig, parse_moves
from gomoku_env.records import GameRecord
from gomoku_env.render import Overlay, RenderOptions, render_board, save_gif

# A game of `make demo` between its PLAYERS (two alpha-beta agents; a game under a
# clock differs from run to run, so one is kept here), for the README's GIF.
GAME = "h8 i7 g8 i8 i9 i6 g7 j10 i5 f6 h6 f8 h9 h7 g9 j9 g10 k10 g11"
GAME_PLAYERS = ("alphabeta:time=0.3", "alphabeta:time=0.3")
SCREENSHOT_MOVES = 13
DOCS = Path("docs")


def window_screenshot(moves: list[int]) -> np.ndarray:
    """The play window after ``moves``, as a person sees it."""
    session = GameSession(GameConfig(), Seat("human"), Seat("human"))
    for action in moves:
        session.play(action)
    app = PlayApp(session, RenderOptions(cell_size=34))
    app.frame()
    picture = pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)
    app.close()
    return picture


def neighbour_heat(board: Board) -> np.ndarray:
    """Stones next to each empty point: a simple stand-in for an agent's policy."""
    grid = (board.grid != 0).astype(float)
    padded = np.pad(grid, 1)
    size = board.size
    counts = sum(
        padded[1 + dy : 1 + dy + size, 1 + dx : 1 + dx + size]
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
    )
    return np.where(grid == 0, counts, 0.0)


def main() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    DOCS.mkdir(exist_ok=True)
    moves = parse_moves(GAME, 15)
    Image.fromarray(window_screenshot(moves[:SCREENSHOT_MOVES])).save(
        DOCS / "screenshot.png", optimize=True
    )
    board = Board.from_moves(moves[:SCREENSHOT_MOVES], GameConfig())
    overlay = Overlay(
        heatmap=neighbour_heat(board), text="heat map overlay", value=0.35
    )
    options = RenderOptions(cell_size=30, move_numbers=True)
    Image.fromarray(render_board(board, overlay, options)).save(
        DOCS / "overlay.png", optimize=True
    )
    record = GameRecord.from_board(Board.from_moves(moves, GameConfig()), *GAME_PLAYERS)
    save_gif(
        record, DOCS / "game.gif", frame_ms=450, options=RenderOptions(cell_size=30)
    )
    for name in ("screenshot.png", "overlay.png", "game.gif"):
        print(f"{DOCS / name}: {(DOCS / name).stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
