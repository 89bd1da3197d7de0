"""A tiny match runner for the agents' strength tests (PettingZoo loop)."""

from __future__ import annotations

from collections.abc import Callable

import gomoku_env
from agents.base import Agent


def play_game(black: Agent, white: Agent, board_size: int, seed: int) -> str | None:
    """Play one game in the AEC env; the winner's agent name, or None for a draw."""
    env = gomoku_env.env(board_size=board_size)
    env.reset(seed=seed)
    players = {"black_0": black, "white_0": white}
    for name in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        env.step(None if termination or truncation else players[name].act(observation))
    return info["winner"]


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
            wins += play_game(first, second, board_size, game) == "black_0"
        else:
            wins += play_game(second, first, board_size, game) == "white_0"
    return wins
