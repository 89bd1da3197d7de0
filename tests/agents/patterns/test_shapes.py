"""Line shapes: hand-made segments, and the table against direct judgement."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.patterns import shapes as sh

CODES = {".": sh.SEGMENT_EMPTY, "X": sh.SEGMENT_OWN, "#": sh.SEGMENT_BLOCKED}


def segment(text: str, win_length: int = 5) -> np.ndarray:
    """Segment from a picture such as '#XX*X.': '*' is the centre, padded with '.'."""
    centre = text.index("*")
    left, right = text[:centre], text[centre + 1 :]
    left = "." * (win_length - len(left)) + left
    right = right + "." * (win_length - len(right))
    return np.array([CODES[c] for c in left + "X" + right], dtype=np.int8)


def judge(text: str, exact: bool = False, win_length: int = 5) -> int:
    return sh.judge_segment(segment(text, win_length), win_length, exact)


@pytest.mark.parametrize(
    ("text", "exact", "expected"),
    [
        ("XX*XX", False, sh.FIVE),
        ("XXX*XX", False, sh.FIVE),
        ("XXX*XX", True, sh.OVERLINE),
        ("#XX*XX#", True, sh.FIVE),
        (".XX*X.", False, sh.OPEN_FOUR),
        ("#XX*X.", False, sh.FOUR),
        ("X.X*X", False, sh.FOUR),
        ("X.*XX.", False, sh.FOUR),
        ("..X*X..", False, sh.OPEN_THREE),
        ("..X*.X..", False, sh.OPEN_THREE),
        ("#X*X...", False, sh.THREE),
        ("X..*X", False, sh.THREE),
        ("#X*X.#", False, sh.DEAD),
        ("...*X...", False, sh.OPEN_TWO),
        ("#*X...", False, sh.TWO),
        ("..*..", False, sh.ONE),
        ("#.*..#", False, sh.DEAD),
        ("X.XX*.", True, sh.FOUR),
    ],
)
def test_hand_made_segments(text: str, exact: bool, expected: int) -> None:
    assert sh.SHAPE_NAMES[judge(text, exact)] == sh.SHAPE_NAMES[expected]


def test_standard_overline_is_no_five_point() -> None:
    # XX.XX* : filling the gap makes six in a row, a five only when overlines win
    assert judge("XX.XX*", exact=False) == sh.FOUR
    assert judge("XX.XX*", exact=True) == sh.THREE


def test_three_in_a_row_wins_with_win_length_three() -> None:
    assert judge("XX*", win_length=3) == sh.FIVE
    assert judge("X*", win_length=3) == sh.OPEN_FOUR
    assert judge("#X*", win_length=3) == sh.FOUR
    assert judge("#*.X", win_length=3) == sh.FOUR


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=3**10 - 1), st.booleans())
def test_table_matches_direct_judgement(key: int, exact: bool) -> None:
    table = sh.build_shape_table(5)
    buffer = np.zeros(11, dtype=np.int8)
    sh.decode_segment(key, 5, buffer)
    assert table[int(exact), key] == sh.judge_segment(buffer, 5, exact)


def test_long_win_lengths_have_no_table() -> None:
    assert sh.build_shape_table(sh.TABLE_MAX_WIN_LENGTH + 1).shape == (2, 0)
    assert not sh.build_shape_table(4).flags.writeable
