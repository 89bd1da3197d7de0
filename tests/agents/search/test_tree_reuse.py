"""Tree reuse keeps exactly the subtree under the move played."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agents.search import SearchTree, run_searches
from gomoku_env import Board, GameConfig
from tests.agents.search.helpers import RANDOM_ROLLOUTS, subtree_size

GAME = GameConfig(board_size=9)


def children_stats(tree: SearchTree, node: int) -> dict[int, tuple[int, float]]:
    """{move: (visits, value)} of the opened children of ``node``."""
    arrays = tree.arrays
    start, count = arrays.edge_start[node], arrays.edge_count[node]
    stats = {}
    for edge in range(start, start + count):
        child = arrays.edge_child[edge]
        if child >= 0:
            stats[int(arrays.edge_move[edge])] = (
                int(arrays.visits[child]),
                float(arrays.value[child]),
            )
    return stats


def test_advance_keeps_exactly_the_subtree() -> None:
    tree = SearchTree(GAME, RANDOM_ROLLOUTS, seed=4)
    tree.reset(Board.from_moves([40, 41], GAME))
    run_searches([tree], None, simulations=3000)
    action = tree.best_action()
    child = tree.child_of(action)
    expected_size = subtree_size(tree.arrays, child)
    expected_root = (int(tree.arrays.visits[child]), float(tree.arrays.value[child]))
    expected_children = children_stats(tree, child)
    tree.advance(action)
    assert tree.node_count == expected_size < 3001
    assert (int(tree.arrays.visits[0]), float(tree.arrays.value[0])) == expected_root
    assert children_stats(tree, 0) == expected_children
    assert subtree_size(tree.arrays, 0) == tree.node_count
    assert tree.root_cells[action] == 1 and tree.to_move == 2


def test_advance_to_an_unexplored_move_starts_fresh() -> None:
    tree = SearchTree(GAME, RANDOM_ROLLOUTS, seed=4)
    run_searches([tree], None, simulations=50)
    unexplored = int(np.flatnonzero(tree.visit_counts() == 0)[0])
    tree.advance(unexplored)
    assert tree.node_count == 1


def test_advance_rejects_occupied_points() -> None:
    tree = SearchTree(GAME, RANDOM_ROLLOUTS, seed=0)
    tree.reset(Board.from_moves([40], GAME))
    with pytest.raises(ValueError, match="40"):
        tree.advance(40)
    assert tree.node_count == 1


def test_memory_stays_bounded() -> None:
    small = replace(RANDOM_ROLLOUTS, max_nodes=500, edges_per_node=40)
    tree = SearchTree(GAME, small, seed=0)
    assert run_searches([tree], None, simulations=2000) == [2000]
    assert tree.node_count <= 500 and tree.edge_count <= 20_000
