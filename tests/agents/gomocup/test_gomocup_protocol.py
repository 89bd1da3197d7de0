"""The pure protocol text functions: parsing, formatting and their error messages."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.gomocup.protocol import (
    Command,
    ProtocolError,
    format_about,
    format_point,
    parse_about,
    parse_board_line,
    parse_command,
    parse_int,
    parse_numbers,
    parse_point,
    rule_code,
    rule_name,
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("START 15", Command("START", "15")),
        ("turn 3,4\r\n", Command("TURN", "3,4")),
        ("  BEGIN  ", Command("BEGIN", "")),
        ("INFO timeout_turn 5000", Command("INFO", "timeout_turn 5000")),
        ("info  rule   1", Command("INFO", "rule   1")),
    ],
)
def test_parse_command_splits_word_and_argument(line, expected):
    assert parse_command(line) == expected


def test_parse_command_refuses_a_blank_line():
    with pytest.raises(ProtocolError, match="empty"):
        parse_command("  \r\n")


@pytest.mark.parametrize("text", ["", "x", "1.5", "1e3", "--2", "0x10", "9" * 13])
def test_parse_int_names_the_bad_text(text):
    with pytest.raises(ProtocolError, match="size must be an integer"):
        parse_int(text, "size")


def test_parse_numbers_counts_the_parts():
    assert parse_numbers(" 3, 4 ,1", 3, "line") == (3, 4, 1)
    with pytest.raises(ProtocolError, match="needs 2 comma-separated integers"):
        parse_numbers("3,4,1", 2, "a point")


@pytest.mark.parametrize(
    ("text", "size", "action"),
    [
        ("0,0", 15, 0),
        ("14,0", 15, 14),
        ("0,1", 15, 15),
        ("7,7", 15, 112),
        ("19,19", 20, 399),
    ],
)
def test_points_are_column_then_row_from_the_top(text, size, action):
    assert parse_point(text, size) == action
    assert format_point(action, size) == text


@pytest.mark.parametrize("text", ["15,0", "0,15", "-1,3", "3", "a,b", "3,4,5", ""])
def test_bad_points_are_refused(text):
    with pytest.raises(ProtocolError):
        parse_point(text, 15)


@given(
    st.integers(5, 25).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n * n - 1))
    )
)
def test_point_round_trip(size_and_action):
    size, action = size_and_action
    assert parse_point(format_point(action, size), size) == action


def test_board_lines_carry_the_owner():
    assert parse_board_line("7,8,1", 15) == (8 * 15 + 7, 1)
    assert parse_board_line("0,0,2", 15) == (0, 2)
    with pytest.raises(ProtocolError, match="field must be 1"):
        parse_board_line("0,0,3", 15)
    with pytest.raises(ProtocolError, match="off the 15x15 board"):
        parse_board_line("15,0,1", 15)


def test_rules_map_both_ways():
    assert rule_name(0) == "freestyle"
    assert rule_name(1) == "standard"
    assert rule_name(4) == "renju"
    assert rule_code("standard") == 1
    for unsupported in (2, 3, 8, 9, -1):
        with pytest.raises(ProtocolError, match=f"unsupported rule {unsupported}"):
            rule_name(unsupported)
    with pytest.raises(ProtocolError, match="no Gomocup counterpart"):
        rule_code("caro")


def test_about_round_trip():
    fields = {"name": "x y", "version": "1.0", "author": 'a "b"'}
    text = format_about(fields)
    assert text == 'name="x y", version="1.0", author="a b"'
    assert parse_about(text) == {"name": "x y", "version": "1.0", "author": "a b"}
    assert parse_about("garbage") == {}
