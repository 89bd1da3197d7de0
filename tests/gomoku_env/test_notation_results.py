"""One wording for the end of a game, shared by the play window, replays and GIFs."""

import pytest

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


def test_resign_is_told_as_resignation_everywhere():
    assert reason_words("resign") == "resignation"
    assert "resign" not in {word for word in REASON_WORDS.values()}
    assert reason_words("something_new") == "something_new"


def test_a_bad_result_is_named():
    with pytest.raises(ValueError, match="'blue'"):
        result_sentence("blue", "five", "b", "w")
