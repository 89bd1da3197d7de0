"""Pattern evaluator: incremental updates equal a fresh judgement; rules honoured."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.patterns import pattern_state as ps
from agents.patterns import point_shapes
from agents.patterns import shapes as sh
from agents.patterns import values as pt
from gomoku_env.kernels import BLACK, FREESTYLE, RENJU, STANDARD, WHITE
from tests.agents.helpers import cells_from_diagram


def fresh(cells: np.ndarray, size: int, win_length: int, rule: int) -> ps.PatternState:
    return ps.new_state(cells, size, win_length, rule)


def assert_same(state: ps.PatternState, other: ps.PatternState) -> None:
    empty = state.cells == 0
    assert np.array_equal(state.cells, other.cells)
    assert np.array_equal(state.shapes[:, empty], other.shapes[:, empty])
    assert np.array_equal(state.scores, other.scores)
    assert np.array_equal(state.totals, other.totals)
    assert np.array_equal(state.counts, other.counts)
    assert np.array_equal(state.four_flags, other.four_flags)
    assert np.array_equal(state.near, other.near)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    size=st.sampled_from([7, 9, 15]),
    win_length=st.sampled_from([4, 5, 7]),
    rule=st.sampled_from([FREESTYLE, STANDARD, RENJU]),
)
def test_play_and_undo_match_a_fresh_judgement(
    seed: int, size: int, win_length: int, rule: int
) -> None:
    win_length = 5 if rule == RENJU else win_length  # renju is played to five
    rng = np.random.default_rng(seed)
    moves = rng.choice(size * size, size=min(30, size * size // 2), replace=False)
    state = fresh(np.zeros(size * size, dtype=np.int8), size, win_length, rule)
    for index, move in enumerate(moves):
        ps.place(state, move, BLACK if index % 2 == 0 else WHITE)
    assert_same(state, fresh(state.cells, size, win_length, rule))
    for move in moves[::-1][:10]:
        ps.remove(state, move)
    assert_same(state, fresh(state.cells, size, win_length, rule))


def test_move_scores_match_the_state() -> None:
    cells = cells_from_diagram(
        ["..X..", ".OXO.", "..XX.", ".O..O"], size=15, top=5, left=5
    )
    state = fresh(cells, 15, 5, FREESTYLE)
    out = np.empty(225, dtype=np.int64)
    pt.move_scores(cells, 15, 5, FREESTYLE, WHITE, state.table, out)
    expected = [
        ps.move_score(state, p, WHITE) if cells[p] == 0 else -1 for p in range(225)
    ]
    assert out.tolist() == expected
    no_table = np.zeros((2, 0), dtype=np.int8)
    direct = np.empty(225, dtype=np.int64)
    pt.move_scores(cells, 15, 5, FREESTYLE, WHITE, no_table, direct)
    assert np.array_equal(out, direct)


def test_open_three_gives_two_winning_points_and_a_five_point_after_four() -> None:
    cells = cells_from_diagram(["XXX"], top=7, left=6)
    state = fresh(cells, 15, 5, FREESTYLE)
    assert state.counts[0, ps.COUNT_WINNING] == 2
    assert state.counts[0, ps.COUNT_FIVES] == 0
    ps.place(state, 7 * 15 + 9, BLACK)
    assert state.counts[0, ps.COUNT_FIVES] == 2


def test_standard_rule_overline_point_is_not_a_five() -> None:
    cells = cells_from_diagram(["XX.XXX"], top=7, left=3)
    gap = 7 * 15 + 5
    assert fresh(cells, 15, 5, FREESTYLE).scores[0, gap] == point_shapes.FIVE_SCORE
    standard = fresh(cells, 15, 5, STANDARD)
    assert standard.scores[0, gap] < point_shapes.OPEN_FOUR_SCORE
    assert standard.counts[0, ps.COUNT_FIVES] == 0


def test_renju_black_forbidden_double_four_is_banned_for_black() -> None:
    # the centre point makes two fours for black (a forbidden double four in renju)
    cells = cells_from_diagram(
        ["O....", ".X...", "..X..", "...X.", "OXXX."], top=3, left=3
    )
    point = 7 * 15 + 7
    freestyle = fresh(cells, 15, 5, FREESTYLE)
    assert freestyle.scores[0, point] == point_shapes.OPEN_FOUR_SCORE
    renju = fresh(cells, 15, 5, RENJU)
    assert renju.scores[0, point] == ps.BANNED
    white_cells = np.where(cells == 0, 0, 3 - cells).astype(np.int8)
    assert (
        fresh(white_cells, 15, 5, RENJU).scores[1, point]
        == point_shapes.OPEN_FOUR_SCORE
    )
    assert sh.SHAPE_NAMES[renju.shapes[0, point, 0]] == "four"
