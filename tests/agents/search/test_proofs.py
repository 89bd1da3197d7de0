"""Proven results: wins found by the rules outrank visit counts; losses are avoided."""

from __future__ import annotations

from agents.search import SearchOptions, SearchTree, run_searches
from gomoku_env import GameConfig
from gomoku_env.planes import board_from_stones
from tests.agents.search.helpers import RANDOM_ROLLOUTS, UniformEvaluator

GAME = GameConfig(board_size=9)
WIN_AT = 41  # black 37-40 with white on 36: 41 wins at once


class Misleading(UniformEvaluator):
    """Ten times any other point's prior on one quiet point: PUCT visits it most."""

    def __init__(self, favourite: int) -> None:
        super().__init__()
        self.favourite = favourite

    def evaluate(self, planes, masks):
        priors, values = super().evaluate(planes, masks)
        priors[:, self.favourite] *= 10
        priors /= priors.sum(axis=1, keepdims=True)
        return priors, values


def test_proven_win_is_preferred_over_a_more_visited_move() -> None:
    board = board_from_stones([37, 38, 39, 40], [36, 0, 8, 72], 72, GAME)
    config = SearchOptions(formula="puct", exploration=1.0, tactical=False, distance=0)
    tree = SearchTree(GAME, config, seed=0)
    tree.reset(board)
    done = run_searches([tree], Misleading(favourite=80), 400)
    visits = tree.visit_counts()
    assert visits[80] > visits[WIN_AT] > 0
    assert tree.best_action() == WIN_AT
    assert tree.is_solved and tree.root_value() == 1.0 and done[0] < 400
    assert tree.visit_distribution(temperature=1.0)[WIN_AT] == 1.0


def test_forced_loss_is_proven_and_reported() -> None:
    # White to move faces black's open four (two winning points): lost whatever it does.
    board = board_from_stones([38, 39, 40, 41, 10], [0, 8, 72, 80], 10, GAME)
    tree = SearchTree(GAME, RANDOM_ROLLOUTS, seed=0)
    tree.reset(board)
    run_searches([tree], None, simulations=500)
    assert tree.is_solved and tree.root_value() == -1.0
    assert tree.best_action() in (37, 42)  # still blocks one end
