"""Renju's forbidden points: a table of hand-built positions with known answers.

Each diagram is a whole board (9×9 or 11×11): ``X`` black, ``O`` white, ``.`` empty and
``*`` the empty point tested for black (where a diagram has no ``*``, its white stone is
tested). Every answer is checked three ways: the single-point kernel, black's whole mask,
and the plain-Python twin in ``tests/renju_twin.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from gomoku_env import renju
from tests.diagrams import diagram_cells
from tests.renju_twin import reasons

POSITIONS = [
    (
        "an overline with a four on another line is an overline",
        "overline",
        """
. . . . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
X X * X X X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "overline: six in a row",
        "overline",
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X X X * X X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "overline: seven in a column",
        "overline",
        """
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . * . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "overline against the edge",
        "overline",
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
* X X X X X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "overline on a diagonal",
        "overline",
        """
X . . . . . . . .
. X . . . . . . .
. . X . . . . . .
. . . * . . . . .
. . . . X . . . .
. . . . . X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "exact five is allowed",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X X * X X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "five between white stones",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O X X * X X O . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "five against the edge",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . * X X X X
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "five takes priority over an overline",
        None,
        """
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. X X * X X . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "five takes priority over a double four",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . . X . . . . .
. X X * X X . . .
. . X . X . . . .
. X . . . X . . .
X . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "five takes priority over a double three",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. X X * X X . . .
. . X . . . . . .
. X . . . . . . .
. . . X . . . . .
. . . . . . . . .
""",
    ),
    (
        "double four: a column and a row",
        "double_four",
        """
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. X X X * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double four: two closed fours",
        "double_four",
        """
. . . . O . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
O X X X * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double four: broken fours on the diagonals",
        "double_four",
        """
. . . . . . . . .
. X . . . . . X .
. . . . . . X . .
. . . X . X . . .
. . . . * . . . .
. . . . . X . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double four on one line: X.XXX.X",
        "double_four",
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X . X * X . X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double four on one line: XX.XX.XX",
        "double_four",
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X . * X . X X .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double four on one line: XXX.X.XXX",
        "double_four",
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X . * . X X X
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double four on one column against the edge",
        "double_four",
        """
X . . . . . . . .
. . . . . . . . .
X . . . . . . . .
* . . . . . . . .
X . . . . . . . .
. . . . . . . . .
X . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double four in the corner",
        "double_four",
        """
X X X * . . . . .
. . . X . . . . .
. . . X . . . . .
. . . X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a straight four is one four",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X X X * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a four whose five would be an overline is no four",
        None,
        """
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
X . X X * X O . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "four-three is allowed",
        None,
        """
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . X X * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "four-four-three is a double four",
        "double_four",
        """
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. X X X * . . . .
. . . X . . . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "four-three-three is a double three",
        "double_three",
        """
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . X X * . . . .
. . . X . . . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double three: a row and a column",
        "double_three",
        """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . X X * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double three: the two diagonals",
        "double_three",
        """
. . . . . . . . .
. . . . . . . . .
. . X . . . X . .
. . . X . X . . .
. . . . * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double three: broken threes X.X*",
        "double_three",
        """
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . X . . . .
. X . X * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double three: broken threes X*.X",
        "double_three",
        """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . . X * . X . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double three with room only between white stones",
        "double_three",
        """
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
O . X X * . . O .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . O . . . .
""",
    ),
    (
        "a three blocked by white is no three",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. O X X * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a three with white one point away on each side is no three",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. O . X * . O . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a three against the edge is no three",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. . X . . . . . .
X X * . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a three one point off the edge is a three",
        "double_three",
        """
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . . X . . . . .
. X X * . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a column running into the edge is no three, so one three only",
        None,
        """
. X X * . . . . .
. . . X . . . . .
. . . X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a three whose straight four would make an overline is no three",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . . X . . . . .
X X X * . . X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a split three whose filling would be an overline is no three",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
X . X * . X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "a single open three is allowed",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X X * . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "an occupied point is never forbidden",
        None,
        """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . X X O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "double three one point off the top edge",
        "double_three",
        """
. . . . . . . . .
. X X * . . . . .
. . . X . . . . .
. . . X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""",
    ),
    (
        "false three: its only straight-four point is an overline",
        None,
        """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . X X . . . . .
. . . . X X . . . . .
O . X X * . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""",
    ),
    (
        "the same threes without the overline point are a double three",
        "double_three",
        """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . X X . . . . .
. . . . X X . . . . .
O . X X * . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""",
    ),
    (
        "false three: its only straight-four point is a double four",
        None,
        """
. . . . . . . . . . .
. . . . . . . . . . .
. . X . . . . . . . .
. . . X X . . . . . .
. . . . X . . . . . .
O . X X * . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""",
    ),
    (
        "false three: its only straight-four point is a four-three-three",
        None,
        """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . X . . X . . .
. . . . X . X . . . .
O . X X * . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""",
    ),
    (
        "a three with one forbidden and one allowed straight-four point is real",
        "double_three",
        """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . X X . . . . .
. . . . X X . . . . .
. . X X * . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""",
    ),
    (
        "false three: both straight-four points are overlines",
        None,
        """
. . . . . . . . . . .
. . . . . . . . . . .
. X . . . X . . . . .
. X . . X X . . . . .
. X . . X X . . . . .
. . X X * . . . . . .
. X . . . X . . . . .
. X . . . X . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""",
    ),
]


# Two positions found by searching random games for points where stopping the recursion
# after one level gives the wrong answer: a three's straight-four point is a double three
# whose own threes are false, so that point is allowed and the first three is real.
DEEP_POSITIONS = [
    """
. . . . . . . . . . . X . . .
. . . . . . . . . . . . . . X
. . . O . . . . . . X . . . .
. . . O O . . . . . . . . X .
. . . . . O . . . . X X . . .
. . . O . . . X . . . X . X .
. . . X . . . . . X X * . . .
. . X . . . . X . . . . . . O
. . . . X O . . . O X . . . .
. . . . . O O X . X O . . O .
. . . . . X . . . . O . . . .
. . . O . . O . . . . O . . .
. . . . . . . O . . . O . . .
. . . . . O . O . . . . . . .
. . . . . . . . . . X . . . .
""",
    """
. . . . . O . O . X . . . . .
. . . . . . . . X . . . . O X
. . . . O . . X . . . . . . X
. . . . . O . X . . X . . O .
. . . . . . X . . . . O . . .
. O . X X . . X . O . . . . O
. . . X . O . . . . X O O . .
. . . . X X O X . . . . . . .
. . . O * . . . X . O X . . .
. . . . . O . . . . O . O . .
. . . X O . . . . . O . . . .
O . . . . X . O . . . . . . .
. . X . X . . . O . . . . . .
. X X O . . . . . . . . . . .
O . . . . X . X . . . . . . .
""",
]


def _position(diagram: str) -> tuple[np.ndarray, int, int]:
    """The cells, board size and tested point of a diagram."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    size = len(rows)
    assert all(len(row) == size for row in rows), "diagrams are square"
    cells = diagram_cells(diagram.replace("*", "."))
    flat = "".join(rows)
    point = flat.index("*") if "*" in flat else int(np.flatnonzero(cells == 2)[0])
    return cells, size, point


def test_the_table_is_large_and_covers_every_answer() -> None:
    assert len(POSITIONS) >= 40
    assert len({name for name, _, _ in POSITIONS}) == len(POSITIONS)
    answers = [answer for _, answer, _ in POSITIONS]
    for answer in renju.FORBIDDEN_REASONS:
        assert answers.count(answer) >= 5, answer


@pytest.mark.parametrize(
    ("answer", "diagram"),
    [(answer, diagram) for _, answer, diagram in POSITIONS],
    ids=[name for name, _, _ in POSITIONS],
)
def test_forbidden_point_table(answer: str | None, diagram: str) -> None:
    cells, size, point = _position(diagram)
    before = cells.copy()
    code = renju.forbidden_code(cells, size, point)
    assert renju.FORBIDDEN_REASONS[code] == answer
    assert renju.forbidden_codes(cells, size)[point] == code
    assert reasons(cells, size)[point] == answer
    assert np.array_equal(cells, before), "the kernels must not change the cells"


@pytest.mark.parametrize("diagram", DEEP_POSITIONS)
def test_threes_are_judged_more_than_one_level_deep(diagram: str) -> None:
    cells, size, point = _position(diagram)
    assert renju.FORBIDDEN_REASONS[renju.forbidden_code(cells, size, point)] == (
        "double_three"
    )
    assert reasons(cells, size)[point] == "double_three"
