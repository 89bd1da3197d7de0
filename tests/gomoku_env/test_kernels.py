"""The rules kernels against the plain-Python oracle: the one judge, colours, centre."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gomoku_env import BLACK, WHITE, Rule
from gomoku_env.kernels import DIRECTIONS, centre_point, judge_stone, other_color
from tests.oracle import maximal_runs, move_wins


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(5, 11),
    win_length=st.integers(3, 6),
    rule=st.sampled_from(list(Rule)),
    games=st.integers(1, 3),
)
def test_judge_stone_agrees_with_the_oracle_in_any_game_of_a_flat_batch(
    seed: int, size: int, win_length: int, rule: Rule, games: int
) -> None:
    win_length = 5 if rule is Rule.RENJU else min(win_length, size)
    rng = np.random.default_rng(seed)
    cells = size * size
    batch = rng.choice(3, size=(games, cells), p=[0.3, 0.35, 0.35]).astype(np.int8)
    game = int(rng.integers(games))
    flat = batch.ravel()
    for action in range(cells):
        for color in (BLACK, WHITE):
            expected = move_wins(
                batch[game], size, win_length, rule.value, action, color
            )
            direction = judge_stone(
                flat, game * cells, size, win_length, rule.code, action, color
            )
            assert (direction >= 0) == expected
            if expected:  # the direction named is that of a winning line
                trial = batch[game].copy()
                trial[action] = color
                run = len(line_through(trial, size, action, direction))
                exact = rule is Rule.STANDARD or (rule is Rule.RENJU and color == BLACK)
                assert run == win_length if exact else run >= win_length


def line_through(cells: np.ndarray, size: int, action: int, direction: int) -> list:
    """The oracle's maximal run through ``action`` along DIRECTIONS[direction]."""
    step = DIRECTIONS[direction, 0] * size + DIRECTIONS[direction, 1]
    for run in maximal_runs(cells, size, int(cells[action])):
        if action in run and len(run) > 1 and run[1] - run[0] == step:
            return run
    return [action]


def test_judge_stone_does_not_read_the_judged_cell() -> None:
    cells = np.zeros(25, dtype=np.int8)
    cells[[0, 1, 2, 3]] = BLACK
    cells[4] = WHITE  # the judged point holds anything: a stone to come is judged
    assert judge_stone(cells, 0, 5, 5, Rule.FREESTYLE.code, 4, BLACK) == 0
    assert judge_stone(cells, 0, 5, 5, Rule.FREESTYLE.code, 4, WHITE) == -1


def test_a_line_does_not_wrap_around_the_board_edge() -> None:
    cells = np.zeros(25, dtype=np.int8)
    cells[[3, 4, 5, 6]] = BLACK  # two on row 0's right end, two on row 1's left end
    assert judge_stone(cells, 0, 5, 5, Rule.FREESTYLE.code, 7, BLACK) == -1
    assert judge_stone(cells, 0, 5, 3, Rule.FREESTYLE.code, 7, BLACK) == 0


def test_other_color_swaps_black_and_white() -> None:
    assert other_color(BLACK) == WHITE and other_color(WHITE) == BLACK


@pytest.mark.parametrize(("size", "centre"), [(15, 112), (9, 40), (6, 21)])
def test_centre_point(size: int, centre: int) -> None:
    assert centre_point(size) == centre
