"""One wording for the end of a game, shared by the play window, replays and GIFs."""

import doctest

import pytest

import gomoku_env.notation
from gomoku_env.notation import REASON_WORDS, reason_words, result_sentence


@pytest.mark.parametrize(
    ("result", "reason", "sentence"),
    [
        ("black", "five", "Black (b) wins by five in a row"),
        ("white", "resign", "White (w) wins by resignation"),
        ("white", "forbidden_overline", "White (w) wins by black's forbidden overline"),
        ("white", "timeout", "White (w) wins by time forfeit"),
        ("black", "", "Black (b) wins"),
        ("draw", "board_full", "Draw: the board is full"),
        ("draw", "", "Draw"),
        ("unfinished", "", "Unfinished"),
    ],
)
def test_result_sentences(result, reason, sentence):
    assert result_sentence(result, reason, "b", "w") == sentence


@pytest.mark.parametrize(
    ("words", "sentence"),
    [
        ({"moves": 9}, "Black (b) wins by five in a row after 9 moves"),
        ({"moves": 1, "win_length": 4}, "Black (b) wins by four in a row after 1 move"),
        ({"win_length": 12}, "Black (b) wins by 12 in a row"),
    ],
)
def test_result_sentences_count_the_moves_and_the_line(words, sentence):
    assert result_sentence("black", "five", "b", "w", **words) == sentence


def test_result_sentence_without_names_gives_the_colour_alone():
    assert result_sentence("white", "resign", moves=2) == (
        "White wins by resignation after 2 moves"
    )
    assert result_sentence("draw", "board_full", moves=25) == (
        "Draw: the board is full after 25 moves"
    )


def test_resign_is_told_as_resignation_everywhere():
    assert reason_words("resign") == "resignation"
    assert "resign" not in {word for word in REASON_WORDS.values()}
    assert reason_words("something_new") == "something_new"


def test_a_bad_result_is_named():
    with pytest.raises(ValueError, match="'blue'"):
        result_sentence("blue", "five", "b", "w")


def test_the_examples_in_the_notation_docstrings_hold():
    result = doctest.testmod(gomoku_env.notation)
    assert result.attempted > 0 and result.failed == 0
