"""PatternEvaluator: priors over the legal points, tactical points first, value signs."""

from __future__ import annotations

import numpy as np
import pytest

from agents.search import SearchOptions, SearchTree, run_searches
from agents.search.pattern_evaluator import PatternEvaluator
from gomoku_env import GameConfig, Rule
from gomoku_env.board import Board
from gomoku_env.planes import ObservationPlanes, board_from_stones

NINE = GameConfig(board_size=9)
RENJU = GameConfig(board_size=15, rule=Rule.RENJU)
# Black builds a four on row 4 (columns 1-4) that white has capped at column 0.
FOUR_MOVES = [37, 36, 38, 0, 39, 2, 40]
WIN_POINT = 41


def leaf(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """The (1, H, W, C) planes and (1, H*W) mask of ``board`` for the side to move."""
    view = ObservationPlanes.from_board(board).view(board.to_move)
    return view[None].astype(np.int8), board.legal_mask()[None].astype(np.int8)


def batch(*boards: Board) -> tuple[np.ndarray, np.ndarray]:
    leaves = [leaf(board) for board in boards]
    return (
        np.concatenate([planes for planes, _ in leaves]),
        np.concatenate([masks for _, masks in leaves]),
    )


def test_priors_are_a_distribution_over_the_mask() -> None:
    black = [7 * 15 + 5, 7 * 15 + 6, 5 * 15 + 7, 6 * 15 + 7]
    renju_board = board_from_stones(black, [0, 14, 210, 224], 224, RENJU)
    assert renju_board.forbidden_mask()[7 * 15 + 7] == 1
    planes, masks = leaf(renju_board)
    priors, values = PatternEvaluator(RENJU).evaluate(planes, masks)
    assert priors.dtype == np.float32 and values.shape == (1,)
    assert priors.sum() == pytest.approx(1.0, abs=1e-5)
    assert np.all(priors[masks == 0] == 0) and np.all(priors[masks == 1] > 0)
    assert priors[0, 7 * 15 + 7] == 0


def test_win_and_block_points_get_the_highest_prior_and_value_signs() -> None:
    winning = Board.from_moves([*FOUR_MOVES, 8], NINE)  # black to move, can make five
    facing = Board.from_moves(FOUR_MOVES, NINE)  # white to move, must block
    priors, values = PatternEvaluator(NINE).evaluate(*batch(winning, facing))
    assert np.argmax(priors[0]) == WIN_POINT and np.argmax(priors[1]) == WIN_POINT
    assert priors[0, WIN_POINT] > 0.5
    assert values[0] > 0.9 and values[1] < -0.9


def test_batch_is_row_by_row_and_temperature_sharpens() -> None:
    boards = [Board.from_moves(FOUR_MOVES[:k], NINE) for k in (1, 4, 7)]
    evaluator = PatternEvaluator(NINE)
    priors, values = evaluator.evaluate(*batch(*boards))
    for row, board in enumerate(boards):
        alone, value = evaluator.evaluate(*leaf(board))
        np.testing.assert_allclose(priors[row], alone[0], atol=1e-6)
        assert values[row] == pytest.approx(value[0])
    assert np.all(np.abs(values) <= 1)
    sharp, _ = PatternEvaluator(NINE, temperature=0.25).evaluate(*leaf(boards[2]))
    assert sharp[0, WIN_POINT] > priors[2, WIN_POINT]


def test_bad_options_and_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="temperature"):
        PatternEvaluator(NINE, temperature=0)
    with pytest.raises(TypeError, match="value_scale"):
        PatternEvaluator(NINE, value_scale="big")
    for infinite in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="temperature"):
            PatternEvaluator(NINE, temperature=infinite)
        with pytest.raises(ValueError, match="value_scale"):
            PatternEvaluator(NINE, value_scale=infinite)
    planes, masks = leaf(Board(NINE))
    with pytest.raises(ValueError, match="masks"):
        PatternEvaluator(NINE).evaluate(planes, masks[:, :10])
    with pytest.raises(ValueError, match="planes"):
        PatternEvaluator(GameConfig(board_size=7)).evaluate(planes, masks)


def test_run_searches_without_tactical_moves_finds_the_block() -> None:
    config = SearchOptions(
        formula="puct", exploration=1.4, tactical=False, distance=2, leaves_per_round=4
    )
    trees = [SearchTree(NINE, config, seed=seed) for seed in range(2)]
    for tree in trees:
        tree.reset(Board.from_moves(FOUR_MOVES, NINE))
    run_searches(trees, PatternEvaluator(NINE), simulations=64)
    assert [tree.best_action() for tree in trees] == [WIN_POINT, WIN_POINT]
