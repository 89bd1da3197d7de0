"""RolloutEvaluator: the rollout kind reaches the compiled search; many trees at once."""

from __future__ import annotations

import numpy as np
import pytest

from agents.search import RolloutEvaluator, SearchConfig, SearchTree, run_searches
from gomoku_env import Board, GameConfig
from gomoku_env.planes import PLANE_COUNT
from tests.agents.search.helpers import RANDOM_ROLLOUTS, TACTICAL_ROLLOUTS

GAME = GameConfig(board_size=9)


def searched(evaluator: RolloutEvaluator, simulations: int = 400) -> SearchTree:
    tree = SearchTree(GAME, SearchConfig(candidate_distance=2), seed=0)
    tree.reset(Board.from_moves([40, 41, 31], GAME))
    assert run_searches([tree], evaluator, simulations=simulations) == [simulations]
    return tree


def test_the_rollout_kind_changes_the_search() -> None:
    again = searched(TACTICAL_ROLLOUTS).visit_counts()
    np.testing.assert_array_equal(searched(TACTICAL_ROLLOUTS).visit_counts(), again)
    assert not np.array_equal(searched(RANDOM_ROLLOUTS).visit_counts(), again)


def test_run_searches_runs_each_tree_its_own_rollouts() -> None:
    trees = [SearchTree(GAME, seed=k) for k in range(3)]
    two_threads = RolloutEvaluator(rollout="random", workers=2)
    assert run_searches(trees, two_threads, 150) == [150] * 3
    assert all(tree.simulations == 150 for tree in trees)
    assert not np.array_equal(trees[0].visit_counts(), trees[1].visit_counts())


def test_rollouts_wait_for_a_pending_gather() -> None:
    tree = SearchTree(GAME, seed=0)
    planes = np.zeros((1, 9, 9, PLANE_COUNT), dtype=np.int8)
    tree.gather(planes, np.zeros((1, 81), dtype=np.int8), 0, 1)
    with pytest.raises(ValueError, match="apply"):
        run_searches([tree], RANDOM_ROLLOUTS, simulations=10)
