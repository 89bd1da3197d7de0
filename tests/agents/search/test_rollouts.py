"""Rollouts: the options' rollout kind reaches the compiled search; many trees at once."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agents.search import SearchOptions, SearchTree, run_searches
from gomoku_env import Board, GameConfig
from gomoku_env.planes import PLANE_COUNT
from tests.agents.search.helpers import RANDOM_ROLLOUTS

GAME = GameConfig(board_size=9)


def searched(rollout: str, simulations: int = 400) -> SearchTree:
    tree = SearchTree(GAME, SearchOptions(distance=2, rollout=rollout), seed=0)
    tree.reset(Board.from_moves([40, 41, 31], GAME))
    assert run_searches([tree], None, simulations=simulations) == [simulations]
    return tree


def test_the_rollout_kind_changes_the_search() -> None:
    again = searched("tactical").visit_counts()
    np.testing.assert_array_equal(searched("tactical").visit_counts(), again)
    assert not np.array_equal(searched("random").visit_counts(), again)


def test_run_searches_runs_each_tree_its_own_rollouts() -> None:
    trees = [SearchTree(GAME, RANDOM_ROLLOUTS, seed=k) for k in range(3)]
    assert run_searches(trees, None, 150) == [150] * 3
    assert all(tree.simulations == 150 for tree in trees)
    assert not np.array_equal(trees[0].visit_counts(), trees[1].visit_counts())


def test_rollouts_wait_for_a_pending_gather() -> None:
    tree = SearchTree(GAME, RANDOM_ROLLOUTS, seed=0)
    planes = np.zeros((1, 9, 9, PLANE_COUNT), dtype=np.int8)
    tree.gather(planes, np.zeros((1, 81), dtype=np.int8), 0, 1)
    with pytest.raises(ValueError, match="apply"):
        run_searches([tree], None, simulations=10)


def test_an_unknown_rollout_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="rollout"):
        replace(RANDOM_ROLLOUTS, rollout="greedy")
