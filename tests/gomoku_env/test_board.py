"""Rule tables: hand-made positions whose result is known, for every rule option."""

from __future__ import annotations

import numpy as np
import pytest

from gomoku_env import BLACK, EMPTY, WHITE, Board, GameConfig, IllegalMoveError
from gomoku_env.notation import parse_moves

FREESTYLE_15 = GameConfig(15, 5, "freestyle")
STANDARD_15 = GameConfig(15, 5, "standard")


def play_points(points: str, config: GameConfig) -> Board:
    """Play alternating moves given in notation."""
    return Board.from_moves(parse_moves(points, config.board_size), config)


# Black's stones are the odd-numbered moves; white's filler moves stay far away.
WINS = {
    "row": "a1 a15 b1 b15 c1 c15 d1 d15 e1",
    "column": "h3 a15 h4 b15 h5 c15 h6 d15 h7",
    "diagonal": "c3 a15 d4 b15 e5 c15 f6 d15 g7",
    "anti-diagonal": "g3 a15 f4 b15 e5 c15 d6 d15 c7",
    "top edge": "k15 a1 l15 b1 m15 c1 n15 d1 o15",
    "corner diagonal": "a1 o1 b2 n1 c3 m1 d4 l1 e5",
    "opposite corner": "o15 a1 n14 b1 m13 c1 l12 d1 k11",
    "filled from the middle": "a1 o1 c1 n1 e1 m1 b1 l1 d1",
}


@pytest.mark.parametrize("name", sorted(WINS))
@pytest.mark.parametrize(
    "config", [FREESTYLE_15, STANDARD_15], ids=["freestyle", "standard"]
)
def test_five_wins_in_every_direction(name: str, config: GameConfig) -> None:
    board = play_points(WINS[name], config)
    assert board.winner == BLACK
    assert board.is_over and not board.is_draw
    assert len(board.winning_line()) == 5
    assert board.moves[-1] in board.winning_line()


def test_four_is_not_a_win_and_the_game_goes_on() -> None:
    board = play_points("a1 a15 b1 b15 c1 c15 d1", FREESTYLE_15)
    assert board.winner == EMPTY and not board.is_over
    assert board.winning_line() == ()


def test_white_wins_too() -> None:
    board = play_points("a15 a1 b15 b1 c15 c1 d15 d1 h8 e1", FREESTYLE_15)
    assert board.winner == WHITE
    assert sorted(board.winning_line()) == sorted(parse_moves("a1 b1 c1 d1 e1", 15))


OVERLINE = "a1 a15 b1 b15 c1 c15 e1 e15 f1 f15 d1"  # d1 joins a1-c1 and e1-f1: six


def test_overline_wins_under_freestyle() -> None:
    board = play_points(OVERLINE, FREESTYLE_15)
    assert board.winner == BLACK
    assert len(board.winning_line()) == 6


def test_overline_does_not_win_under_standard() -> None:
    board = play_points(OVERLINE, STANDARD_15)
    assert board.winner == EMPTY and not board.is_over


def test_standard_five_next_to_overline_in_another_direction_wins() -> None:
    # d1 makes six along row 1 and exactly five along column d: the five counts.
    points = "a1 a15 b1 c15 c1 e15 e1 g15 f1 i15 d2 k15 d3 m15 d4 o15 d5 o13 d1"
    board = play_points(points, STANDARD_15)
    assert board.winner == BLACK
    assert sorted(board.winning_line()) == sorted(parse_moves("d1 d2 d3 d4 d5", 15))


def test_k4_on_6x6() -> None:
    config = GameConfig(6, 4, "freestyle")
    board = play_points("a1 f6 b2 f5 c3 f4 d4", config)
    assert board.winner == BLACK
    assert len(board.winning_line()) == 4


def test_k3_on_5x5_standard_rejects_four() -> None:
    config = GameConfig(5, 3, "standard")
    board = play_points("a1 e5 b1 e4 d1 a5 c1", config)  # a1 b1 c1 d1: four, not three
    assert board.winner == EMPTY
    board.play(parse_moves("e3", 5)[0])  # e5 e4 e3: exactly three
    assert board.winner == WHITE


def test_draw_on_a_full_board_without_a_line() -> None:
    # 5×5, win length 5, rows alternate so no line of five of one colour exists.
    pattern = [
        "XXOOX",
        "OOXXO",
        "XXOOX",
        "OOXXO",
        "XXOOX",
    ]
    config = GameConfig(5, 5, "freestyle")
    black = [
        r * 5 + c
        for r, row in enumerate(pattern)
        for c, ch in enumerate(row)
        if ch == "X"
    ]
    white = [
        r * 5 + c
        for r, row in enumerate(pattern)
        for c, ch in enumerate(row)
        if ch == "O"
    ]
    moves = [m for pair in zip(black, white, strict=False) for m in pair] + black[
        len(white) :
    ]
    board = Board.from_moves(moves, config)
    assert board.is_full and board.is_draw and board.is_over
    assert board.winner == EMPTY
    assert not board.legal_mask().any()


@pytest.mark.parametrize(
    ("action", "message"),
    [(-1, "off the"), (225, "off the"), (112, "occupied by black")],
)
def test_illegal_moves_name_the_problem_and_leave_the_board_unchanged(
    action: int, message: str
) -> None:
    board = play_points("h8", FREESTYLE_15)
    before = board.copy()
    with pytest.raises(IllegalMoveError, match=message):
        board.play(action)
    assert board == before


def test_moves_after_the_game_is_over_are_illegal() -> None:
    board = play_points(WINS["row"], FREESTYLE_15)
    with pytest.raises(IllegalMoveError, match="already over"):
        board.play(100)
    assert not board.legal_mask().any()


def test_non_integer_action_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="'h8'"):
        Board().play("h8")  # type: ignore[arg-type]


def test_numpy_integer_actions_are_accepted() -> None:
    board = Board()
    board.play(np.int64(112))
    assert board.moves == [112] and isinstance(board.moves[0], int)


def test_undo_restores_the_position_and_result() -> None:
    board = play_points(WINS["column"], FREESTYLE_15)
    assert board.winner == BLACK
    assert board.undo() == parse_moves("h7", 15)[0]
    assert board.winner == EMPTY and board.to_move == BLACK
    assert board == play_points(WINS["column"].rsplit(" ", 1)[0], FREESTYLE_15)


def test_undo_on_empty_board_raises() -> None:
    with pytest.raises(IllegalMoveError, match="no moves"):
        Board().undo()


def test_copy_is_independent() -> None:
    board = play_points("h8 h9", FREESTYLE_15)
    clone = board.copy()
    clone.play(0)
    assert board.moves == parse_moves("h8 h9", 15)
    assert board.cells[0] == EMPTY and clone.cells[0] == BLACK


def test_legal_mask_marks_exactly_the_empty_points() -> None:
    board = play_points("h8 h9 a1", FREESTYLE_15)
    mask = board.legal_mask()
    assert mask.dtype == np.int8 and mask.shape == (225,)
    assert mask.sum() == 222
    assert not mask[parse_moves("h8 h9 a1", 15)].any()
    assert list(board.legal_actions()) == list(np.flatnonzero(mask))


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"board_size": 4}, ValueError, "board_size must be between 5 and 25, got 4"),
        ({"board_size": 26}, ValueError, "got 26"),
        ({"board_size": 9, "win_length": 10}, ValueError, "win_length must be between"),
        ({"win_length": 2}, ValueError, "got 2"),
        ({"rule": "gomoku-pro"}, ValueError, "unknown rule 'gomoku-pro'"),
        ({"board_size": 15.0}, TypeError, "board_size must be an int"),
    ],
)
def test_bad_config_is_rejected_with_the_bad_value(
    kwargs: dict, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        GameConfig(**kwargs)
