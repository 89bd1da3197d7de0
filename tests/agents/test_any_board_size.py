"""An agent built without a game plays the board it is shown; one built for another
board says how to build it for this one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import gomoku_env
from agents.base import Agent, RandomAgent
from agents.budget import Budget
from agents.classic.alphabeta import AlphaBetaAgent
from agents.classic.heuristic import HeuristicAgent
from agents.search.mcts import MCTSAgent
from gomoku_env.config import GameConfig

WITHOUT_A_GAME: dict[str, Callable[[], Agent]] = {
    "heuristic": lambda: HeuristicAgent(seed=1),
    "random": lambda: RandomAgent(seed=1),
    "mcts": lambda: MCTSAgent(budget=Budget(simulations=16), seed=1),
    "alphabeta": lambda: AlphaBetaAgent(seed=1, budget=Budget(nodes=200)),
}


def play_aec(black: Agent, white: Agent, size: int) -> dict:
    """One game in the AEC loop of the README on a ``size`` board; its end info."""
    env = gomoku_env.env(board_size=size)
    env.reset(seed=0)
    players = {"black_0": black, "white_0": white}
    for name in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        action = None if terminated or truncated else players[name].act(observation)
        env.step(action)
    return info


@pytest.mark.parametrize("name", WITHOUT_A_GAME)
def test_an_agent_without_a_game_plays_a_9x9_aec_game(name: str) -> None:
    agent = WITHOUT_A_GAME[name]()
    info = play_aec(agent, RandomAgent(seed=2), 9)
    assert info["moves"] >= 5
    if name != "random":
        assert agent.config == GameConfig(9)
        play_aec(agent, RandomAgent(seed=3), 7)  # and then another board
        assert agent.config == GameConfig(7)


def test_an_agent_built_for_another_board_names_the_fix() -> None:
    agent = HeuristicAgent(GameConfig(15), seed=1)
    with pytest.raises(ValueError, match=r"GameConfig\(board_size=9\)"):
        play_aec(agent, RandomAgent(seed=2), 9)
