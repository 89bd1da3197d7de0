"""A Gumbel root: sequential halving's visits, its improved policy and its move."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agents.search import SearchOptions, SearchTree, run_searches
from agents.search.driver import check_evaluator
from gomoku_env.board import Board
from gomoku_env.config import GameConfig

GAME = GameConfig(board_size=7)
PUCT = SearchOptions(formula="puct", distance=0, tactical=False)


class FavourOneMove:
    """Uniform priors; a leaf where ``cell`` is taken is lost for the side to move
    (so the root's move there is good for the root's player), any other is level."""

    def __init__(self, cell: int) -> None:
        self.cell = cell

    def evaluate(self, planes: np.ndarray, masks: np.ndarray):
        priors = (masks / masks.sum(axis=1, keepdims=True)).astype(np.float32)
        values = np.where(masks[:, self.cell] == 0, -0.9, 0.0).astype(np.float32)
        return priors, values


def halved_tree(
    simulations: int, actions: int, seed: int = 3, cell: int = 10, leaves: int = 1
):
    tree = SearchTree(GAME, replace(PUCT, leaves_per_round=leaves), seed=seed)
    tree.reset(Board(GAME))
    tree.halve_root(simulations, actions)
    run_searches([tree], check_evaluator(FavourOneMove(cell)), simulations)
    return tree


@pytest.mark.parametrize("leaves", [1, 4])
def test_phases_share_the_budget_among_fewer_and_fewer_moves(leaves: int) -> None:
    # 17 simulations: the root's expansion, then 16 over 4 sampled moves in
    # log2(4) = 2 phases: 2 visits each, then 4 more for each of the two kept,
    # whether a round gathers one leaf or four (the survivors in turns).
    tree = halved_tree(17, 4, leaves=leaves)
    visits = tree.visit_counts()
    assert sorted(visits[visits > 0].tolist()) == [2, 2, 6, 6]
    assert visits.sum() == 16


def test_the_improved_policy_and_the_move_follow_the_values() -> None:
    # Every one of the 49 moves sampled and visited once: the values decide.
    tree = halved_tree(50, 49, cell=10)
    assert (tree.visit_counts() == 1).all()
    policy = tree.halving.improved_policy(GAME.cells)
    assert policy.dtype == np.float32 and policy.sum() == pytest.approx(1.0)
    assert int(policy.argmax()) == 10 and policy[10] > 0.9
    assert tree.halving.chosen_move() == 10


def test_unvisited_moves_keep_their_prior_order_in_the_policy() -> None:
    # 3 simulations over 8 sampled moves: most of the 49 moves are never visited;
    # their completed value is the visited moves' mean, so they share one weight.
    tree = halved_tree(3, 8, cell=10)
    policy = tree.halving.improved_policy(GAME.cells)
    unvisited = policy[tree.visit_counts() == 0]
    assert unvisited.size >= 46
    np.testing.assert_allclose(unvisited, unvisited[0])
    assert (policy > 0).all()


def test_the_same_seed_halves_alike_and_another_samples_other_moves() -> None:
    first, again = halved_tree(17, 4, seed=5), halved_tree(17, 4, seed=5)
    other = halved_tree(17, 4, seed=6)
    np.testing.assert_array_equal(first.visit_counts(), again.visit_counts())
    assert first.halving.chosen_move() == again.halving.chosen_move()
    assert not np.array_equal(first.visit_counts(), other.visit_counts())


def test_a_root_move_ends_the_schedule() -> None:
    tree = halved_tree(17, 4)
    tree.advance(tree.halving.chosen_move())
    assert tree.halving is None
    run_searches([tree], check_evaluator(FavourOneMove(10)), 8)
    assert tree.halving is None


def test_halving_refuses_uct_and_empty_budgets() -> None:
    tree = SearchTree(GAME, SearchOptions(formula="uct"), seed=0)
    with pytest.raises(ValueError, match="'uct'"):
        tree.halve_root(16, 4)
    puct = SearchTree(GAME, PUCT, seed=0)
    with pytest.raises(ValueError, match="got 0 and 4"):
        puct.halve_root(0, 4)
    with pytest.raises(ValueError, match="got 8 and -1"):
        puct.halve_root(8, -1)
