"""Match helpers for the agents' strength tests, on the one game loop (agents.game)."""

from __future__ import annotations

from collections.abc import Callable

from agents.base import Agent
from agents.game import play_game as play_outcome
from gomoku_env import GameConfig


def play_game(
    black: Agent, white: Agent, board_size: int, rule: str = "freestyle"
) -> str | None:
    """Play one game; the winner's agent name (``"black_0"``/``"white_0"``) or None.

    A forfeit (an illegal move such as a renju forbidden point) is won by the other
    side, so the tests, which check the winner, see it.
    """
    outcome = play_outcome(black, white, GameConfig(board_size, rule=rule))
    return None if outcome.winner is None else f"{outcome.winner}_0"


def match_wins(
    make_first: Callable[[int], Agent],
    make_second: Callable[[int], Agent],
    games: int,
    board_size: int,
) -> int:
    """Games the first agent wins out of ``games``, colours alternating, game k
    seeding both agents' factories with k."""
    wins = 0
    for game in range(games):
        first, second = make_first(game), make_second(1000 + game)
        if game % 2 == 0:
            wins += play_game(first, second, board_size) == "black_0"
        else:
            wins += play_game(second, first, board_size) == "white_0"
    return wins
