"""Standard notation: round trips, the centre, corners and bad text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku_env import (
    NotationError,
    action_to_notation,
    notation_to_action,
    parse_moves,
)
from gomoku_env.notation import format_moves


def test_centre_and_corners_of_15x15() -> None:
    assert notation_to_action("h8", 15) == 112
    assert notation_to_action("a15", 15) == 0  # top-left
    assert notation_to_action("o15", 15) == 14  # top-right
    assert notation_to_action("a1", 15) == 210  # bottom-left
    assert notation_to_action("o1", 15) == 224
    assert action_to_notation(112, 15) == "h8"


def test_case_and_whitespace_are_forgiven() -> None:
    assert notation_to_action("  H8 ", 15) == 112


def test_25x25_uses_letters_up_to_y() -> None:
    assert notation_to_action("y25", 25) == 24
    assert action_to_notation(624, 25) == "y1"


@given(
    st.integers(5, 25).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n * n - 1))
    )
)
def test_round_trip(size_and_action: tuple[int, int]) -> None:
    size, action = size_and_action
    assert notation_to_action(action_to_notation(action, size), size) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a point"),
        ("8h", "is not a point"),
        ("h", "is not a point"),
        ("h8x", "is not a point"),
        ("p8", "off the 15x15 board"),
        ("h16", "off the 15x15 board"),
        ("h0", "off the 15x15 board"),
        ("z3", "off the 15x15 board"),
    ],
)
def test_bad_points_are_rejected_with_the_text(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as raised:
        notation_to_action(text, 15)
    assert repr(text) in str(raised.value)


def test_move_lists_accept_spaces_commas_and_semicolons() -> None:
    assert parse_moves("h8, i9;h9  j10", 15) == [112, 98, 97, 84]
    assert format_moves([112, 98], 15) == "h8 i9"
    assert parse_moves("  ", 15) == []


def test_bad_point_inside_a_move_list_is_named() -> None:
    with pytest.raises(NotationError, match="'q3'"):
        parse_moves("h8 q3", 15)


def test_action_off_the_board_has_no_notation() -> None:
    with pytest.raises(NotationError, match="action 81 is off the 9x9 board"):
        action_to_notation(81, 9)
