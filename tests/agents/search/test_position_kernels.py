"""The search's position kernels against the rules core and the env as oracles."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.search.position_kernels import (
    candidate_mask,
    winning_points,
    wins_at,
    write_planes,
)
from gomoku_env import Board, GameConfig, Rule
from gomoku_env.kernels import winning_direction
from gomoku_env.observation import ObservationPlanes


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
    win_length=st.integers(3, 5),
    rule=st.sampled_from(list(Rule)),
)
def test_wins_at_agrees_with_the_rules_kernel(seed, size, win_length, rule) -> None:
    cells = random_position(seed, size, stones=size * size // 2)
    for action in np.flatnonzero(cells == 0):
        for color in (1, 2):
            trial = cells.copy()
            trial[action] = color
            expected = (
                winning_direction(trial, size, win_length, rule.code, action) >= 0
            )
            assert (
                wins_at(cells, size, win_length, rule.code, action, color) == expected
            )


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 30))
def test_write_planes_matches_the_env(seed, moves) -> None:
    game = GameConfig(board_size=9)
    rng = np.random.default_rng(seed)
    board = Board(game)
    while len(board.moves) < moves and not board.is_over:
        board.play(int(rng.choice(board.legal_actions())))
    out = np.empty((9, 9, 4), dtype=np.int8)
    last = -1 if board.last_move is None else board.last_move
    write_planes(board.cells, 9, board.to_move, last, out)
    np.testing.assert_array_equal(
        out, ObservationPlanes.from_board(board).view(board.to_move)
    )


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
    for color in (1, 2):
        out = np.empty(81, dtype=np.int32)
        count = winning_points(cells, 9, 4, rule.code, color, out)
        expected = [
            action
            for action in np.flatnonzero(cells == 0)
            if wins_at(cells, 9, 4, rule.code, action, color)
        ]
        assert sorted(out[:count]) == expected
