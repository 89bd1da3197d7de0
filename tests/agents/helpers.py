"""Helpers of the agent tests: small diagrams placed on a board, and a game loop.

A test position is usually a few stones in one corner of the board; writing only that
part keeps the diagram readable, and ``top``/``left`` say where it sits.
"""

from __future__ import annotations

import numpy as np

from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from tests.diagrams import board_from_diagram as board_from_full_diagram
from tests.diagrams import diagram_cells


def cells_from_diagram(
    rows: list[str], size: int = 15, top: int = 0, left: int = 0
) -> np.ndarray:
    """Flat int8 cells with the diagram's stones, its top-left corner at (top, left)."""
    part = diagram_cells("\n".join(rows)).reshape(len(rows), -1)
    grid = np.zeros((size, size), dtype=np.int8)
    grid[top : top + part.shape[0], left : left + part.shape[1]] = part
    return grid.reshape(-1)


def board_from_diagram(
    rows: list[str], config: GameConfig | None = None, top: int = 0, left: int = 0
) -> Board:
    """A Board holding the diagram's stones (black to move when counts are equal)."""
    config = config or GameConfig()
    grid = cells_from_diagram(rows, config.board_size, top, left)
    size = config.board_size
    text = "\n".join(
        "".join(".XO"[value] for value in grid[row * size : (row + 1) * size])
        for row in range(size)
    )
    return board_from_full_diagram(text, config)


def play_in_env(env: object, players: dict[str, object]) -> list[int | None]:
    """Play a PettingZoo game to the end with ``players`` (agent name → Agent) and
    return the actions stepped (None for the closing steps)."""
    actions: list[int | None] = []
    for name in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        action = None if termination or truncation else players[name].act(observation)
        actions.append(action)
        env.step(action)
    return actions
