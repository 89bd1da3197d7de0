"""Renju: the search never proposes, expands or plays black's forbidden points."""

from __future__ import annotations

import numpy as np

from agents.base import RandomAgent
from agents.specs.parse import make_agent
from gomoku_env import GameConfig, Rule
from gomoku_env.planes import board_from_stones
from tests.agents.match import play_game

RENJU = GameConfig(board_size=15, rule=Rule.RENJU)
DOUBLE_THREE = 7 * 15 + 7  # h8 joins two open twos into two open threes


def double_three_position():
    black = [7 * 15 + 5, 7 * 15 + 6, 5 * 15 + 7, 6 * 15 + 7]
    white = [0, 14, 210, 224]
    return board_from_stones(black, white, 224, RENJU)


def test_forbidden_point_is_never_searched_or_played() -> None:
    board = double_three_position()
    assert board.forbidden_mask()[DOUBLE_THREE] == 1
    for rollout in ("tactical", "random"):
        spec = f"mcts:rollout={rollout},simulations=1500,distance=1"
        agent = make_agent(spec, RENJU, seed=0)
        action = agent.act_on_board(board)
        assert action != DOUBLE_THREE and board.legal_mask()[action] == 1
        assert agent.last_summary.visits[DOUBLE_THREE] == 0


def test_black_mcts_plays_only_legal_moves_in_renju_games() -> None:
    for seed in range(2):
        agent = make_agent("mcts:simulations=300", RENJU, seed=seed)
        winner = play_game(agent, RandomAgent(seed=seed), 15, rule="renju")
        assert winner == "black_0"
    assert np.all(agent.last_summary.visits >= 0)
