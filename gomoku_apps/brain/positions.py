"""Positions sent by a manager's BOARD block, checked before the brain adopts them."""

from __future__ import annotations

from agents.gomocup.protocol import OWN_STONE, ProtocolError, format_point
from gomoku_env import kernels
from gomoku_env.board import COLOR_NAMES, Board
from gomoku_env.config import GameConfig
from gomoku_env.position import board_from_stones


def board_from_block(stones: list[tuple[int, int]], config: GameConfig) -> Board:
    """The position of a BOARD block: ``(action, field)`` pairs, the brain to move.

    The brain moves next, so it has as many stones as its opponent (it plays black) or
    one fewer (white). The opponent's last listed stone becomes the last move; Gomocup
    managers list the stones in the order they were played.

    Raises:
        ProtocolError: a point is listed twice, the stone counts cannot have the brain
            to move, or somebody has already won.
    """
    actions = [action for action, _ in stones]
    if len(set(actions)) != len(actions):
        repeated = sorted({a for a in actions if actions.count(a) > 1})
        points = ", ".join(format_point(a, config.board_size) for a in repeated)
        raise ProtocolError(f"BOARD lists these points twice: {points}")
    own = [action for action, field in stones if field == OWN_STONE]
    opponent = [action for action, field in stones if field != OWN_STONE]
    if len(own) == len(opponent):
        black, white = own, opponent
    elif len(opponent) == len(own) + 1:
        black, white = opponent, own
    else:
        raise ProtocolError(
            f"BOARD has {len(own)} own and {len(opponent)} opponent stones: the brain "
            "to move must have as many stones as its opponent or one fewer"
        )
    last_move = opponent[-1] if opponent else None
    board = board_from_stones(black, white, last_move, config)
    _refuse_finished(board)
    return board


def _refuse_finished(board: Board) -> None:
    """Raise if a stone on ``board`` is part of a winning line."""
    config = board.config
    for action in board.moves:
        direction = kernels.winning_direction(
            board.cells, board.size, config.win_length, config.rule.code, action
        )
        if direction >= 0:
            color = COLOR_NAMES[int(board.cells[action])]
            raise ProtocolError(
                f"BOARD position is already won by {color} "
                f"(line through {format_point(action, board.size)})"
            )
