"""MCTSAgent with the pattern evaluator: PUCT through the external-evaluator path."""

from __future__ import annotations

import pytest

from agents.base import RandomAgent
from agents.search.pattern_evaluator import PatternEvaluator
from agents.specs.parse import make_agent
from gomoku_env import GameConfig
from tests.agents.match import match_wins, play_game
from tests.agents.search.test_mcts_renju import (
    DOUBLE_THREE,
    RENJU,
    double_three_position,
)

NINE = GameConfig(board_size=9)


def test_spec_selects_the_pattern_evaluator_and_default_stays_rollouts() -> None:
    agent = make_agent("mcts:evaluator=patterns,simulations=50", NINE, seed=0)
    assert isinstance(agent.evaluator, PatternEvaluator)
    assert agent.evaluator.config == NINE
    assert agent.tree.options.formula == "puct"
    default = make_agent("mcts:simulations=50", NINE, seed=0)
    assert default.evaluator is None
    assert default.tree.options.formula == "uct"
    assert default.tree.options.rollout == "tactical"
    random = make_agent("mcts:rollout=random", NINE, seed=0)
    assert random.evaluator is None and random.tree.options.rollout == "random"
    with pytest.raises(ValueError, match="'network'"):
        make_agent("mcts:evaluator=network", NINE)
    with pytest.raises(ValueError, match="rollout='random' needs evaluator=rollout"):
        make_agent("mcts:evaluator=patterns,rollout=random", NINE)
    with pytest.raises(ValueError, match="'greedy'"):
        make_agent("mcts:rollout=greedy", NINE)


def test_pattern_mcts_beats_random_on_nine_by_nine() -> None:
    wins = match_wins(
        lambda seed: make_agent("mcts:evaluator=patterns,simulations=200", NINE, seed),
        lambda seed: RandomAgent(seed=seed),
        games=6,
        board_size=9,
    )
    assert wins == 6


def test_pattern_mcts_never_searches_or_plays_a_forbidden_point() -> None:
    board = double_three_position()
    spec = "mcts:evaluator=patterns,simulations=400,distance=1"
    agent = make_agent(spec, RENJU, seed=0)
    action = agent.act_on_board(board)
    assert action != DOUBLE_THREE and board.legal_mask()[action] == 1
    assert agent.last_summary.visits[DOUBLE_THREE] == 0
    black = make_agent("mcts:evaluator=patterns,simulations=200", RENJU, seed=1)
    assert play_game(black, RandomAgent(seed=1), 15, rule="renju") == "black_0"
