"""The batched external-evaluator API: one call serves many searches."""

from __future__ import annotations

import numpy as np
import pytest

from agents.search import SearchOptions, SearchTree, run_searches, step_searches
from gomoku_env import Board, GameConfig
from gomoku_env.planes import PLANE_COUNT, ObservationPlanes
from tests.agents.search.helpers import UniformEvaluator

GAME = GameConfig(board_size=9)
PUCT = SearchOptions(formula="puct", exploration=1.5, distance=0)


def leaf_board(tree: SearchTree, root: Board, node: int) -> Board:
    """The board at ``node``: the root's moves, then the path from the root."""
    path = []
    arrays = tree.arrays
    while arrays.parent[node] >= 0:
        path.append(int(arrays.move[node]))
        node = int(arrays.parent[node])
    return Board.from_moves(root.moves + path[::-1], GAME)


def test_leaf_planes_and_masks_are_the_envs() -> None:
    root = Board.from_moves([40, 41, 31], GAME)
    tree = SearchTree(GAME, PUCT, seed=3)
    tree.reset(root)
    evaluator = UniformEvaluator()
    for _ in range(3):
        step_searches([tree], evaluator, 8)
    planes = np.zeros((8, 9, 9, PLANE_COUNT), dtype=np.int8)
    masks = np.zeros((8, 81), dtype=np.int8)
    count = tree.gather(planes, masks, 0, 8)
    assert count == 8
    for k in range(count):
        board = leaf_board(tree, root, int(tree._leaves[k]))
        expected = ObservationPlanes.from_board(board).view(board.to_move)
        np.testing.assert_array_equal(planes[k], expected)
        np.testing.assert_array_equal(masks[k], board.legal_mask())
    nodes = {int(node) for node in tree._leaves[:count]}
    assert len(nodes) == count  # virtual loss kept the leaves apart


def test_one_evaluator_call_serves_every_search() -> None:
    trees = [SearchTree(GAME, PUCT, seed=k) for k in range(5)]
    for tree in trees:
        tree.reset(Board.from_moves([40, 41], GAME))
    evaluator = UniformEvaluator()
    step_searches(trees, evaluator, 8)  # first round: each root alone
    assert evaluator.batch_sizes == [5]
    step_searches(trees, evaluator, 8)
    assert evaluator.batch_sizes[1] == 5 * 8
    done = run_searches(trees, evaluator, 100)
    assert done == [100] * 5
    assert all(tree.visit_counts().sum() == tree.simulations - 1 for tree in trees)


def test_values_are_for_the_side_to_move() -> None:
    class FavoursBlackLeaves(UniformEvaluator):
        def evaluate(self, planes, masks):
            priors, _ = super().evaluate(planes, masks)
            black_to_move = planes[:, 0, 0, 3] == 1
            return priors, np.where(black_to_move, 0.9, -0.9).astype(np.float32)

    tree = SearchTree(GAME, PUCT, seed=0)
    tree.reset(Board.from_moves([40], GAME))  # white to move; every reply favours black
    run_searches([tree], FavoursBlackLeaves(), 200)
    assert tree.root_value() < -0.5


def test_dirichlet_noise_changes_root_priors_once() -> None:
    config = SearchOptions(
        formula="puct",
        distance=0,
        dirichlet_alpha=0.3,
        dirichlet_fraction=0.5,
        leaves_per_round=4,
    )
    tree = SearchTree(GAME, config, seed=1)
    run_searches([tree], UniformEvaluator(), 50)
    arrays = tree.arrays
    priors = arrays.edge_prior[
        arrays.edge_start[0] : arrays.edge_start[0] + arrays.edge_count[0]
    ]
    assert priors.sum() == pytest.approx(1.0, abs=1e-5)
    assert priors.std() > 0.001  # uniform priors would have no spread


def test_bad_evaluator_output_is_rejected() -> None:
    class Broken(UniformEvaluator):
        def evaluate(self, planes, masks):
            priors, values = super().evaluate(planes, masks)
            return priors[:, :10], values

    tree = SearchTree(GAME, PUCT, seed=0)
    with pytest.raises(ValueError, match="expected"):
        step_searches([tree], Broken(), 4)
