"""Game records: round trips through text and files, clear errors for bad records."""

import os
import re

import pytest

from gomoku_env import Board, GameConfig
from gomoku_env.records import HEADER_LIMIT, GameRecord, RecordError

WIN = [112, 113, 97, 98, 82, 83, 67, 68, 52]  # black h8-h12 wins on 15×15

GOOD = """# gomoku_env game record
Rule: freestyle
Size: 9
WinLength: 5
Black: human
White: random
Result: white
Reason: resign

1. e5 f5
2. e6
"""


def test_text_round_trip_keeps_everything():
    record = GameRecord.from_board(
        Board.from_moves(WIN, GameConfig()),
        "human",
        "mcts:simulations=100",
        date="2026",
    )
    assert (record.result, record.reason) == ("black", "five")
    again = GameRecord.from_text(record.to_text())
    assert again == record and again.date == "2026"
    assert again.board() == Board.from_moves(WIN, GameConfig())


def test_file_round_trip_is_atomic(tmp_path):
    path = tmp_path / "game.txt"
    record = GameRecord.from_text(GOOD)
    record.save(path)
    assert GameRecord.load(path) == record
    assert sorted(os.listdir(tmp_path)) == ["game.txt"]
    assert oct(path.stat().st_mode & 0o777) == oct(0o644)


def test_failed_save_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "game.txt"
    path.write_text("old")
    record = GameRecord.from_text(GOOD)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        record.save(path)
    assert path.read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["game.txt"]


def test_parsed_record_has_the_moves_and_result():
    record = GameRecord.from_text(GOOD)
    assert record.config == GameConfig(9, 5)
    assert record.moves == (40, 41, 31)
    assert (record.black, record.white, record.result, record.reason) == (
        "human",
        "random",
        "white",
        "resign",
    )
    assert record.board(1).moves == [40]


def replace_line(text, old, new):
    assert old in text
    return text.replace(old, new)


MALFORMED = [
    (replace_line(GOOD, "Size: 9\n", ""), 9, "missing header 'Size'"),
    (replace_line(GOOD, "Size: 9", "Size: nine"), 3, "whole number"),
    (replace_line(GOOD, "Size: 9", "Size: 40"), 3, "board_size must be between"),
    (replace_line(GOOD, "WinLength: 5", "WinLength: 12"), 4, "win_length must be"),
    (replace_line(GOOD, "Rule: freestyle", "Rule: chess"), 2, "unknown rule 'chess'"),
    (replace_line(GOOD, "Reason: resign", "Colour: red"), 8, "unknown header 'Colour'"),
    (replace_line(GOOD, "Reason: resign", "Black: again"), 8, "given twice"),
    (replace_line(GOOD, "Reason: resign", "just words"), 8, "expected 'Key: value'"),
    (replace_line(GOOD, "2. e6", "3. e6"), 11, "expected move pair number '2.'"),
    (replace_line(GOOD, "2. e6", "2. e5"), 11, "move 3 'e5'"),
    (replace_line(GOOD, "2. e6", "2. z9"), 11, "off the 9x9 board"),
    (replace_line(GOOD, "2. e6", "2. 55"), 11, "not a point"),
    (replace_line(GOOD, "2. e6", "2. e6 e7 e8"), 11, "one or two moves"),
    (replace_line(GOOD, "1. e5 f5", "1. e5"), 11, "has only one move"),
    (GOOD + "Date: later\n", 12, "header 'Date' after the moves"),
    (replace_line(GOOD, "Result: white", "Result: lost"), 7, "result must be one of"),
    (replace_line(GOOD, "Black: human", "Black:"), 5, "Black must name the player"),
    (replace_line(GOOD, "Reason: resign", "Reason: five"), 7, "nobody has 5 in a row"),
    (replace_line(GOOD, "2. e6", "². e6"), 11, "expected 'Key: value'"),
    (replace_line(GOOD, "2. e6", "0" * 4998 + "2. e6"), 11, "expected move pair"),
    (replace_line(GOOD, "Result: white", "Result: draw"), 7, "'resign' means one"),
    (
        replace_line(GOOD, "Reason: resign", "Reason: forbidden_double_three"),
        7,
        "white won under renju, but the record says freestyle",
    ),
]


@pytest.mark.parametrize(("text", "line", "message"), MALFORMED)
def test_malformed_records_name_the_line_and_the_problem(text, line, message):
    pattern = rf"game\.txt, line {line}: .*{re.escape(message)}"
    with pytest.raises(RecordError, match=pattern):
        GameRecord.from_text(text, source="game.txt")


def test_result_must_agree_with_a_five():
    text = GameRecord.from_board(Board.from_moves(WIN, GameConfig())).to_text()
    with pytest.raises(RecordError, match="contradicts the moves: black has five"):
        GameRecord.from_text(text.replace("Result: black", "Result: white"))


def test_load_names_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nowhere\.txt"):
        GameRecord.load(tmp_path / "nowhere.txt")


def test_size_that_is_not_a_plain_number_names_the_line():
    text = replace_line(GOOD, "Size: 9", "Size: ²")
    with pytest.raises(RecordError, match=r"game\.txt, line 3: Size .* got '²'"):
        GameRecord.from_text(text, source="game.txt")


def test_binary_or_badly_encoded_file_names_the_file_and_line(tmp_path):
    path = tmp_path / "picture.png"
    path.write_bytes(GOOD.encode() + b"\x89PNG\x00\xff\n")
    with pytest.raises(RecordError, match=r"picture\.png, line 12: not UTF-8 text"):
        GameRecord.load(path)


def test_directory_is_a_clear_error_naming_it(tmp_path):
    with pytest.raises(RecordError, match=re.escape(f"{tmp_path}: is a directory")):
        GameRecord.load(tmp_path)


def test_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GOOD, encoding="utf-8-sig")
    assert GameRecord.load(path) == GameRecord.from_text(GOOD)


def test_huge_bad_token_gives_a_short_message():
    text = GOOD.replace("2. e6", "2. " + "z" * 1_000_000)
    with pytest.raises(RecordError, match=r"line 11: move 3 'zzz") as caught:
        GameRecord.from_text(text, source="game.txt")
    assert len(str(caught.value)) < 1000


@pytest.mark.parametrize("result", ["draw", "black", "unfinished"])
def test_board_full_reason_needs_a_full_board(result):
    text = replace_line(GOOD, "Reason: resign", "Reason: board_full")
    text = replace_line(text, "Result: white", f"Result: {result}")
    with pytest.raises(RecordError, match="line 7: reason 'board_full' but"):
        GameRecord.from_text(text, source="game.txt")


def non_regular_files(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("keep me")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    return [link, fifo]


def test_save_refuses_to_replace_a_symlink_or_a_special_file(tmp_path):
    record = GameRecord.from_text(GOOD)
    link, fifo = non_regular_files(tmp_path)
    for path in (link, fifo):
        with pytest.raises(ValueError, match=f"{re.escape(str(path))}.* not a regular"):
            record.save(path)
    assert link.is_symlink() and (tmp_path / "target.txt").read_text() == "keep me"
    assert fifo.exists() and not fifo.is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "link.txt",
        "pipe",
        "target.txt",
    ]


def test_a_header_value_over_the_limit_is_refused_naming_the_line():
    text = replace_line(GOOD, "Black: human", "Black: " + "x" * 50_000)
    with pytest.raises(
        RecordError, match=r"line 5: header 'Black' is 50000 characters long"
    ) as error:
        GameRecord.from_text(text)
    assert len(str(error.value)) < 400


def test_a_program_s_long_player_name_is_cut_to_the_limit():
    record = GameRecord(GameConfig(9), (), "p" * 5_000, "white")
    assert len(record.black) == HEADER_LIMIT and record.black.endswith("…")
    assert GameRecord.from_text(record.to_text()) == record


@pytest.mark.parametrize("word", ["exploded", "Five", "x" * 150])
def test_a_result_reason_that_is_no_known_word_is_refused(word):
    """Round 3: ``Reason: exploded`` was read as if it meant something."""
    text = replace_line(GOOD, "Reason: resign", f"Reason: {word}")
    with pytest.raises(RecordError, match="unknown reason") as caught:
        GameRecord.from_text(text)
    assert repr(word[:40]) in str(caught.value) or word[:40] in str(caught.value)
    assert len(str(caught.value)) < 400


def test_every_reason_the_programs_write_is_a_known_one():
    from agents.game import FORFEIT_REASONS
    from gomoku_env.outcome import END_REASONS
    from gomoku_env.records import RECORD_REASONS

    assert {"", "resign", *FORFEIT_REASONS, *END_REASONS} <= set(RECORD_REASONS)
