"""The search's position kernels against the rules core and the oracle."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.search.position_kernels import (
    candidate_mask,
    is_legal_point,
    legal_mask_into,
    winning_points,
)
from agents.search.rollout import padded_board
from gomoku_env import Board, GameConfig, Rule
from gomoku_env.kernels import judge_stone
from tests.oracle import move_wins


def random_position(seed: int, size: int, stones: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    cells = np.zeros(size * size, dtype=np.int8)
    points = rng.choice(size * size, size=stones, replace=False)
    cells[points] = rng.integers(1, 3, size=stones)
    return cells


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(5, 11),
    rule_and_length=st.sampled_from(
        [("freestyle", 3), ("freestyle", 5), ("standard", 4), ("renju", 5)]
    ),
    distance=st.integers(0, 7),
)
def test_the_judge_on_a_rollouts_padded_board_agrees_with_the_oracle(
    seed, size, rule_and_length, distance
) -> None:
    rule, win_length = rule_and_length
    pad = max(win_length, distance)  # as the rollout pads
    cells = random_position(seed, size, stones=size * size // 2)
    board, points = padded_board(cells, size, pad)
    stride = size + 2 * pad
    code = Rule(rule).code
    for action, point in zip(np.flatnonzero(cells == 0), points, strict=True):
        for color in (1, 2):
            judged = judge_stone(board, 0, stride, win_length, code, point, color)
            expected = move_wins(cells, size, win_length, rule, action, color)
            assert (judged >= 0) == expected


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 60),
    rule=st.sampled_from(list(Rule)),
)
def test_legal_mask_matches_the_board(seed, moves, rule) -> None:
    game = GameConfig(board_size=15, rule=rule)
    rng = np.random.default_rng(seed)
    board = Board(game)
    centre = np.array([row * 15 + col for row in range(4, 11) for col in range(4, 11)])
    while len(board.moves) < moves and not board.is_over:
        free = centre[board.legal_mask()[centre] == 1]
        if free.size == 0:
            break  # the centre is full (or forbidden to black): stop here
        board.play(int(rng.choice(free)))
    if board.is_over:
        board.undo()
    legal = np.empty(225, dtype=np.int8)
    legal_mask_into(board.cells.copy(), 15, rule.code, board.to_move, legal)
    np.testing.assert_array_equal(legal, board.legal_mask())


def test_candidates_are_near_stones_or_everywhere_on_an_empty_board() -> None:
    cells = np.zeros(81, dtype=np.int8)
    out = np.empty(81, dtype=np.int8)
    assert candidate_mask(cells, 9, 0, 1, 2, out) == 81
    cells[0] = 1
    assert candidate_mask(cells, 9, 0, 1, 2, out) == 8
    assert set(np.flatnonzero(out)) == {1, 2, 9, 10, 11, 18, 19, 20}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    stones=st.integers(0, 60),
    rule=st.sampled_from(list(Rule)),
)
def test_winning_points_are_every_win_in_one(seed, stones, rule) -> None:
    cells = random_position(seed, 9, stones)
    length = 5 if rule is Rule.RENJU else 4
    for color in (1, 2):
        out = np.empty(81, dtype=np.int32)
        count = winning_points(cells, 9, length, rule.code, color, out)
        expected = [
            action
            for action in np.flatnonzero(cells == 0)
            if move_wins(cells, 9, length, rule.value, action, color)
            and is_legal_point(cells, 9, rule.code, action, color)
        ]
        assert sorted(out[:count]) == expected
