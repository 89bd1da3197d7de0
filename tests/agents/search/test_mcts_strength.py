"""Small seeded matches: MCTS strength against baselines and itself (9×9)."""

from __future__ import annotations

from agents.base import RandomAgent
from agents.specs.parse import make_agent
from gomoku_env import GameConfig
from tests.agents.match import match_wins

GAME = GameConfig(board_size=9)


def test_mcts_2000_beats_random_almost_always() -> None:
    games = 20
    wins = match_wins(
        lambda seed: make_agent("mcts:simulations=2000", GAME, seed),
        lambda seed: RandomAgent(seed=seed),
        games,
        board_size=9,
    )
    assert wins >= 0.98 * games


def test_mcts_2000_beats_mcts_200_clearly() -> None:
    games = 6
    wins = match_wins(
        lambda seed: make_agent("mcts:simulations=2000", GAME, seed),
        lambda seed: make_agent("mcts:simulations=200", GAME, seed),
        games,
        board_size=9,
    )
    assert wins >= 5


def test_batched_search_is_not_weaker() -> None:
    # Equal strength scores about half; a third or more rules out "clearly weaker".
    games = 12
    wins = match_wins(
        lambda seed: make_agent("mcts:simulations=1000,leaves_per_round=8", GAME, seed),
        lambda seed: make_agent("mcts:simulations=1000,leaves_per_round=1", GAME, seed),
        games,
        board_size=9,
    )
    assert wins >= games // 3
