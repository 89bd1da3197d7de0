"""Forced wins in the search: a VCF at the root is played, one at a leaf is proven, and
the root's moves are cut to those that stop the opponent's VCF (hand-made positions
from the VCF solver's own table)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.patterns.pattern_state import new_state
from agents.patterns.threats import find_vcf
from agents.search import SearchOptions, SearchTree, run_searches
from gomoku_env import GameConfig
from gomoku_env.kernels import BLACK, EMPTY, WHITE
from gomoku_env.planes import board_from_stones
from tests.agents.patterns.test_threats import (
    DOUBLE_FOUR_3,
    STAIRCASE_5,
    placed,
    replay_is_forced_win,
)
from tests.agents.search.helpers import UniformEvaluator

GAME = GameConfig()  # 15×15 freestyle, the solver's table's board
FILLER = [14 * 15 + column for column in (0, 3, 6, 9, 12)] + [
    row * 15 + 14 for row in (0, 3, 6, 9)
]
"""Lone white stones far from the diagrams, to give the side to move its count."""


def board_with(cells: np.ndarray, to_move: int):
    """The position of ``cells`` with filler white stones so ``to_move`` moves."""
    black = np.flatnonzero(cells == BLACK)
    white = list(np.flatnonzero(cells == WHITE))
    wanted = black.size - (0 if to_move == BLACK else 1)
    white += FILLER[: wanted - len(white)]
    assert len(white) == wanted
    return board_from_stones(black, np.array(white), None, GAME)


def tree_for(board, vcf_nodes: int) -> SearchTree:
    config = SearchOptions(
        formula="puct", exploration=1.4, distance=0, vcf_nodes=vcf_nodes
    )
    tree = SearchTree(GAME, config, seed=0)
    tree.reset(board)
    return tree


def vcf_line(cells: np.ndarray, color: int) -> list[int]:
    line = np.empty(22, dtype=np.int64)
    length, _ = find_vcf(new_state(cells, 15, 5, 0), color, 21, 100_000, line)
    return [int(move) for move in line[:length]]


def test_a_vcf_at_the_root_is_proven_and_played() -> None:
    board = board_with(placed(STAIRCASE_5, 3, 2, 0), BLACK)
    tree = tree_for(board, vcf_nodes=200)
    run_searches([tree], UniformEvaluator(), simulations=50)
    assert tree.is_solved and tree.root_value() == 1.0
    line = vcf_line(board.cells, BLACK)
    assert tree.best_action() == line[0]
    assert replay_is_forced_win(board.cells, line, BLACK)


def test_without_the_checks_the_root_stays_open() -> None:
    board = board_with(placed(STAIRCASE_5, 3, 2, 0), BLACK)
    tree = tree_for(board, vcf_nodes=0)
    run_searches([tree], UniformEvaluator(), simulations=50)
    assert not tree.is_solved


def two_double_fours() -> np.ndarray:
    """Black's double four on two sides of the board: one white stone stops one."""
    cells = placed(DOUBLE_FOUR_3, 1, 1, 0)
    far = placed(DOUBLE_FOUR_3, 8, 6, 0)
    cells[far != EMPTY] = far[far != EMPTY]
    return cells


@pytest.mark.parametrize("vcf_nodes", [200, 0])
def test_leaf_checks_prove_every_reply_lost(vcf_nodes: int) -> None:
    board = board_with(two_double_fours(), WHITE)
    empty = int(np.count_nonzero(board.cells == EMPTY))
    tree = tree_for(board, vcf_nodes)
    done = run_searches([tree], UniformEvaluator(), simulations=2 * empty)
    if vcf_nodes:
        # each white move is proven lost when its node is expanded: one visit each
        assert tree.is_solved and tree.root_value() == -1.0
        assert done[0] <= empty + 1
    else:
        assert not tree.is_solved


def test_root_moves_are_cut_to_those_that_stop_the_opponents_vcf() -> None:
    cells = placed(DOUBLE_FOUR_3, 3, 2, 0)
    board = board_with(cells, WHITE)
    assert vcf_line(board.cells, BLACK)
    tree = tree_for(board, vcf_nodes=200)
    run_searches([tree], UniformEvaluator(), simulations=20)
    start, count = tree.arrays.edge_start[0], tree.arrays.edge_count[0]
    moves = tree.arrays.edge_move[start : start + count].tolist()
    assert 0 < count < 20  # of some 200 empty points
    for move in moves:
        after = board.cells.copy()
        after[move] = WHITE
        assert vcf_line(after, BLACK) == [], move
    assert tree.best_action() in moves


def test_a_forced_block_stays_the_only_move_under_the_checks() -> None:
    # white has four in a row with one open end; black has no VCF: block, nothing else
    cells = np.zeros(GAME.cells, dtype=np.int8)
    cells[[7 * 15 + 3, 7 * 15 + 4, 7 * 15 + 5, 7 * 15 + 6]] = WHITE
    cells[[7 * 15 + 2, 0, 4, 4 * 15]] = BLACK  # the end stone, then lone stones
    board = board_with(cells, BLACK)
    tree = tree_for(board, vcf_nodes=200)
    run_searches([tree], UniformEvaluator(), simulations=20)
    start = tree.arrays.edge_start[0]
    assert tree.arrays.edge_count[0] == 1
    assert tree.arrays.edge_move[start] == 7 * 15 + 7
    assert tree.best_action() == 7 * 15 + 7


def test_a_kept_root_with_a_new_threat_is_searched_afresh() -> None:
    # white plays a quiet move while black has a VCF: the root kept from the last
    # search had a leaf's small check; the fresh root proves the win at once
    board = board_with(placed(STAIRCASE_5, 3, 2, 0), WHITE)
    tree = tree_for(board, vcf_nodes=1)
    run_searches([tree], UniformEvaluator(), simulations=30)
    quiet = 14 * 15 + 1
    tree.advance(quiet)
    assert tree.node_count == 1
    run_searches([tree], UniformEvaluator(), simulations=1)
    assert tree.is_solved and tree.root_value() == 1.0
