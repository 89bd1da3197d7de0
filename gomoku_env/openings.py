"""Openings: the moves played before an episode's first step.

Evaluation wants games that start from varied, sensible positions. An opening is either
given (a notation string such as "h8 i9 h9", or actions) and validated here once, or
drawn at random from the points near the centre.
"""

from __future__ import annotations

import numpy as np

from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.errors import IllegalMoveError
from gomoku_env.fields import check_number
from gomoku_env.kernels import centre_point
from gomoku_env.notation import parse_moves

OPENING_RADIUS = 2
"""Random opening stones fall within this many rows and columns of the centre."""


def parse_opening(
    opening: str | list[int] | tuple[int, ...] | None, config: GameConfig
) -> list[int]:
    """Validate an opening (notation string or actions) and return it as actions.

    Raises:
        ValueError: a point is malformed, off the board or occupied, an action is
            not an int, or the opening already decides the game.
    """
    if opening is None:
        return []
    text = isinstance(opening, str)
    actions = parse_moves(opening, config.board_size) if text else list(opening)
    board = Board(config)
    for index, action in enumerate(actions):
        try:
            board.play(action)
        except TypeError:
            raise ValueError(
                f"opening move {index + 1} must be an int action, got {action!r}"
            ) from None
        except IllegalMoveError as error:
            raise ValueError(
                f"bad opening move {index + 1} ({action}): {error}"
            ) from None
    if board.is_over:
        raise ValueError(f"opening {opening!r} already decides the game")
    return board.moves


def check_random_opening(random_opening: int) -> int:
    """``random_opening`` if it is a stone count the centre area can hold (at most half
    its points); otherwise a ValueError naming it."""
    check_number("random_opening", random_opening, minimum=0, integer=True)
    if random_opening > (2 * OPENING_RADIUS + 1) ** 2 // 2:
        raise ValueError(
            f"random_opening {random_opening} is too many stones for the centre area"
        )
    return random_opening


def centre_area(size: int) -> np.ndarray:
    """Actions within OPENING_RADIUS of the centre (in both row and column)."""
    row, col = divmod(centre_point(size), size)
    rows = np.arange(max(0, row - OPENING_RADIUS), min(size, row + OPENING_RADIUS + 1))
    cols = np.arange(max(0, col - OPENING_RADIUS), min(size, col + OPENING_RADIUS + 1))
    return (rows[:, None] * size + cols[None, :]).ravel()
