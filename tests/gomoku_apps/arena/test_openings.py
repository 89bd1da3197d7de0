"""Opening book: the 26 candidates, the built-in book, user files."""

from __future__ import annotations

import pytest

from gomoku_apps.arena.builtin_openings import BUILTIN_BOOK
from gomoku_apps.arena.openings import (
    builtin_openings,
    candidate_openings,
    describe,
    load_openings,
    shuffled,
)
from gomoku_env import Board, GameConfig
from gomoku_env.board import SYMMETRY_COUNT


@pytest.mark.parametrize("size", [5, 9, 15, 19])
def test_there_are_26_candidates_distinct_under_symmetry(size):
    openings = candidate_openings(size)
    assert len(openings) == 26
    images = set()
    for opening in openings:
        board = Board.from_moves(opening, GameConfig(board_size=size))
        assert not board.is_over
        classes = {
            (frozenset(t.moves[0::2]), frozenset(t.moves[1::2]))
            for t in (board.transformed(s) for s in range(SYMMETRY_COUNT))
        }
        assert not classes & images
        images |= classes
    centre = (size // 2) * (size + 1)
    assert all(opening[0] == centre for opening in openings)


def test_builtin_book_covers_common_sizes_with_valid_openings():
    assert {9, 13, 15, 19} <= set(BUILTIN_BOOK)
    for size in BUILTIN_BOOK:
        openings = builtin_openings(GameConfig(board_size=size))
        assert 10 <= len(openings) <= 26
        assert set(openings) <= set(candidate_openings(size))


def test_other_sizes_use_all_candidates():
    config = GameConfig(board_size=7)
    assert builtin_openings(config) == candidate_openings(7)
    assert load_openings("none", config) == [()]


def test_user_opening_file(tmp_path):
    path = tmp_path / "openings.txt"
    # A byte order mark (some editors write one) is ignored, as in records.
    path.write_text("\ufeffh8 h9  # two stones\n\n# more\n-\nh8,i9,j10\n")
    config = GameConfig(board_size=15)
    openings = load_openings(path, config)
    assert [describe(o, 15) for o in openings] == ["h8 h9", "-", "h8 i9 j10"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h8 h8\n", ":1: bad opening"),
        ("# nothing\n", "no opening"),
        ("h8\nz99\n", ":2: bad opening 'z99'"),
    ],
)
def test_bad_opening_files_name_the_line(tmp_path, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_openings(path, GameConfig(board_size=15))


def test_shuffle_depends_on_seed_only():
    openings = candidate_openings(9)
    assert shuffled(openings, 3) == shuffled(openings, 3)
    assert shuffled(openings, 3) != shuffled(openings, 4)
    assert sorted(shuffled(openings, 3)) == sorted(openings)


def test_a_binary_opening_file_is_named(tmp_path):
    path = tmp_path / "book.bin"
    path.write_bytes(b"d4\n\xc7\x00\xff")
    with pytest.raises(ValueError, match=r"book\.bin, line 2: not UTF-8 text.*opening"):
        load_openings(path, GameConfig(board_size=9))
    with pytest.raises(ValueError, match="is a directory, not an opening file"):
        load_openings(tmp_path, GameConfig(board_size=9))
