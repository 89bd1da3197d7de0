"""Renju in the rules core: kernels against the twin, symmetry, and the Board API."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gomoku_env import BLACK, EMPTY, WHITE, Board, GameConfig, Rule, renju
from gomoku_env.board import SYMMETRY_COUNT, transform_cells
from gomoku_env.kernels import DIRECTIONS
from gomoku_env.notation import parse_moves
from gomoku_env.records import GameRecord, result_of
from gomoku_env.render.scene import forbidden_points
from tests.renju_twin import reasons

RENJU_15 = GameConfig(15, 5, "renju")
SIZE = 9
# Stones go in the centre 7×7 of a 9×9 board, so lines meet the edge and each other.
CENTRE = [row * SIZE + col for row in range(1, 8) for col in range(1, 8)]


@st.composite
def crowded_positions(draw: st.DrawFn) -> np.ndarray:
    """Flat 9×9 cells with up to 30 stones, about two black for each white."""
    points = draw(st.lists(st.sampled_from(CENTRE), min_size=4, max_size=30))
    colors = draw(
        st.lists(st.sampled_from([BLACK, BLACK, WHITE]), min_size=30, max_size=30)
    )
    cells = np.zeros(SIZE * SIZE, dtype=np.int8)
    for point, color in zip(points, colors, strict=False):
        cells[point] = color
    return cells


def _reasons_of(codes: np.ndarray) -> list[str | None]:
    return [renju.FORBIDDEN_REASONS[code] for code in codes]


@settings(max_examples=80, deadline=None)
@given(crowded_positions())
def test_kernels_agree_with_the_twin_on_every_point(cells: np.ndarray) -> None:
    codes = renju.forbidden_codes(cells, SIZE)
    assert _reasons_of(codes) == reasons(cells, SIZE)
    single = [renju.forbidden_code(cells, SIZE, point) for point in range(cells.size)]
    assert single == list(codes)


@settings(max_examples=60, deadline=None)
@given(crowded_positions(), st.integers(1, SYMMETRY_COUNT - 1))
def test_answers_are_invariant_under_the_board_symmetries(
    cells: np.ndarray, symmetry: int
) -> None:
    codes = renju.forbidden_codes(cells, SIZE)
    moved = transform_cells(cells, SIZE, symmetry)
    assert np.array_equal(
        renju.forbidden_codes(moved, SIZE), transform_cells(codes, SIZE, symmetry)
    )


@settings(max_examples=200, deadline=None)
@given(crowded_positions())
def test_the_prefilters_only_skip_allowed_points(cells: np.ndarray) -> None:
    scratch = cells.copy()
    counts = renju.black_in_reach(cells, SIZE)
    for point in np.flatnonzero(cells == EMPTY):
        for direction, (d_row, d_col) in enumerate(DIRECTIONS):
            stones = renju.line_stones(cells, SIZE, point, d_row, d_col)
            assert counts[direction, point] >= stones
        if not renju.may_be_forbidden(cells, SIZE, point):
            assert renju.code_of_move(scratch, SIZE, point) == renju.ALLOWED


def test_renju_is_a_rule_and_needs_five() -> None:
    assert Rule.parse("Renju") is Rule.RENJU
    assert GameConfig(9, 5, "renju").rule is Rule.RENJU
    with pytest.raises(
        ValueError, match="win_length must be 5 under rule 'renju', got 4"
    ):
        GameConfig(9, 4, "renju")


def play(points: str, config: GameConfig = RENJU_15) -> Board:
    return Board.from_moves(parse_moves(points, config.board_size), config)


# Black h8 h9 i10 j10, white far away: h10 makes the column h8-h10 and the row h10-j10.
DOUBLE_THREE = "h8 a1 h9 a3 i10 a5 j10 o1"
H10 = parse_moves("h10", 15)[0]


def test_board_answers_for_black_to_move() -> None:
    board = play(DOUBLE_THREE)
    assert board.to_move == BLACK
    assert board.forbidden_reason(H10) == "double_three"
    assert board.forbidden_reason(parse_moves("g8", 15)[0]) is None
    assert board.forbidden_reason(parse_moves("h8", 15)[0]) is None  # occupied
    mask = board.forbidden_mask()
    assert mask.dtype == np.int8 and mask.shape == (225,)
    expected = {
        point
        for point, reason in enumerate(reasons(board.cells, 15))
        if reason is not None
    }
    assert set(np.flatnonzero(mask)) == expected and H10 in expected


def test_forbidden_points_are_not_legal_but_play_accepts_them() -> None:
    board = play(DOUBLE_THREE)
    assert board.legal_mask()[H10] == 0 and H10 not in board.legal_actions()
    assert not board.is_legal(H10)
    assert board.legal_mask().sum() == 225 - 8 - board.forbidden_mask().sum()
    board.play(H10)
    assert board.winner == WHITE


def test_white_and_other_rules_have_no_forbidden_points() -> None:
    moves = DOUBLE_THREE
    for rule in ("freestyle", "standard"):
        board = play(moves, GameConfig(15, 5, rule))
        assert not board.forbidden_mask().any()
        assert board.forbidden_reason(H10) is None
        assert board.is_legal(H10) and board.legal_mask()[H10] == 1
    board = play(moves + " o3")
    assert board.to_move == WHITE
    assert not board.forbidden_mask().any()
    assert board.forbidden_reason(H10) is None


def test_playing_a_forbidden_point_loses_and_undo_restores() -> None:
    board = play(DOUBLE_THREE)
    before = board.copy()
    board.play(H10)
    assert board.winner == WHITE and board.is_over
    assert board.forbidden_loss == "double_three"
    assert board.winning_line() == ()
    assert not board.legal_mask().any()
    assert board.copy().forbidden_loss == "double_three"
    board.undo()
    assert board == before and board.forbidden_loss is None
    assert board.forbidden_reason(H10) == "double_three"


def test_black_overline_loses_and_white_overline_wins() -> None:
    board = play("a1 a15 b1 b15 c1 c15 e1 e15 f1 o8 d1")
    assert board.winner == WHITE and board.forbidden_loss == "overline"
    board = play("a15 a1 b15 b1 c15 c1 o9 e1 o11 f1 o13 d1")
    assert board.winner == WHITE and board.forbidden_loss is None
    assert len(board.winning_line()) == 6


def test_exact_five_wins_for_black_even_with_an_overline_elsewhere() -> None:
    # d1 joins a1-c1 and e1-f1 (six) and d2-d5 upwards (five): the five wins.
    board = play("a1 a15 b1 b15 c1 c15 e1 e15 f1 o8 d2 o10 d3 o12 d4 o14 d5 n15 d1")
    assert board.winner == BLACK and board.forbidden_loss is None
    assert sorted(board.winning_line()) == sorted(parse_moves("d1 d2 d3 d4 d5", 15))


def test_forbidden_reason_rejects_points_off_the_board() -> None:
    with pytest.raises(ValueError, match="225"):
        Board(RENJU_15).forbidden_reason(225)
    with pytest.raises(TypeError, match="'h10'"):
        Board(RENJU_15).forbidden_reason("h10")


def test_the_forbidden_mask_is_computed_once_per_position() -> None:
    board = play(DOUBLE_THREE)
    first = board.forbidden_mask()
    first[:] = 0  # the caller's copy; the board's answer must not change
    assert board.forbidden_mask().any()
    board.play(parse_moves("o15", 15)[0])
    board.play(parse_moves("o14", 15)[0])
    assert board.forbidden_mask()[H10] == 1


def test_pictures_cross_out_exactly_the_forbidden_points() -> None:
    board = play(DOUBLE_THREE)
    assert set(forbidden_points(board)) == set(np.flatnonzero(board.forbidden_mask()))
    assert H10 in forbidden_points(board)


def test_records_name_a_forbidden_loss() -> None:
    board = play(DOUBLE_THREE)
    board.play(H10)
    assert result_of(board) == ("white", "forbidden_double_three")
    record = GameRecord.from_board(board)
    assert (record.result, record.reason) == ("white", "forbidden_double_three")
