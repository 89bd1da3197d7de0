"""Rebuilding a :class:`Board` from what an agent sees: observation planes.

A policy in a PettingZoo loop gets only the observation dict; search agents need a
board to search from. The planes hold the stones and the last move but not the order of
the earlier moves, which no rule here depends on, so the rebuilt history interleaves the
stones in index order and ends with the last move.
"""

from __future__ import annotations

import numpy as np

from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.kernels import BLACK, WHITE
from gomoku_env.planes import LAST_MOVE, read_cells


def board_from_stones(
    black: np.ndarray, white: np.ndarray, last_move: int | None, config: GameConfig
) -> Board:
    """A board with the given black and white stone actions and ``last_move`` played last.

    Raises:
        ValueError: the stone counts cannot arise in a game (black has 0 or 1 more), a
            point holds both colours, or ``last_move`` is not a stone of the side that
            moved last.
    """
    black = [int(a) for a in np.sort(np.asarray(black, dtype=np.int64))]
    white = [int(a) for a in np.sort(np.asarray(white, dtype=np.int64))]
    if len(black) - len(white) not in (0, 1):
        raise ValueError(
            f"impossible stone counts: {len(black)} black and {len(white)} white "
            "(black must have as many stones as white or one more)"
        )
    if set(black) & set(white):
        raise ValueError(f"points hold both colours: {sorted(set(black) & set(white))}")
    moved_last = black if len(black) > len(white) else white
    if last_move is not None:
        if last_move not in moved_last:
            raise ValueError(
                f"last move {last_move} is not a stone of the side that moved last"
            )
        moved_last.remove(last_move)
        moved_last.append(last_move)
    moves = [None] * (len(black) + len(white))
    moves[0::2] = black
    moves[1::2] = white
    return Board.with_stones(moves, config)


def board_from_observation(
    observation: dict[str, np.ndarray], config: GameConfig
) -> Board:
    """The position behind a PettingZoo observation dict of the Gomoku env."""
    planes = np.asarray(observation["observation"])
    size = config.board_size
    if planes.shape[:2] != (size, size):
        raise ValueError(
            f"observation planes of shape {planes.shape} do not fit a {size}x{size} board"
        )
    cells = np.empty(size * size, dtype=np.int8)
    read_cells(np.ascontiguousarray(planes, dtype=np.int8), cells)
    last = np.flatnonzero(planes[:, :, LAST_MOVE])
    return board_from_stones(
        np.flatnonzero(cells == BLACK),
        np.flatnonzero(cells == WHITE),
        int(last[0]) if last.size else None,
        config,
    )
