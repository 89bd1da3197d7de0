"""Renju's forbidden points against the Piskvork judge (the ``renju`` package)."""

from __future__ import annotations

from renju.check_forbid import get_foul_type

from gomoku_env import BLACK, GameConfig, renju
from gomoku_env.notation import action_to_notation
from tests.diagrams import board_from_diagram, diagram_cells
from tests.renju_oracle import JUDGE_CODES, SIZE, compare
from tests.renju_twin import reasons

# Black to move at row 6, column 2 (from the top, from 0) makes a four on its row and
# two three shapes; one three's only straight-four point also makes a five on
# another line, so the judge and Rapfi count no three there: a four-three, allowed.
FOUR_THREE_WITH_A_FIVE_POINT = """
.O.X..X..X...O.
.O.XO..O...X..X
O.X....OX.O....
..OO...O....O.X
X...O.X........
.X.O.X...OOOXX.
.X.X....XX.....
...X.X.........
X.X....XO..O.O.
.OXX...OX.O....
O...X.O..O.....
.X..X....O..O.O
.XXX.....O...X.
X..X......O.X..
O.OOO.O.......O
"""
POINT = 6 * SIZE + 2


def test_a_three_whose_straight_four_point_makes_five_is_no_three() -> None:
    cells = diagram_cells(FOUR_THREE_WITH_A_FIVE_POINT)
    grid = cells.reshape(SIZE, SIZE).tolist()
    assert JUDGE_CODES[get_foul_type(grid, 6, 2)] == renju.ALLOWED
    assert renju.forbidden_code(cells, SIZE, POINT) == renju.ALLOWED
    assert renju.forbidden_codes(cells, SIZE)[POINT] == renju.ALLOWED
    assert reasons(cells, SIZE)[POINT] is None
    board = board_from_diagram(FOUR_THREE_WITH_A_FIVE_POINT, GameConfig(15, 5, "renju"))
    assert board.to_move == BLACK, "black is to move in the diagram"
    assert board.forbidden_reason(POINT) is None
    assert board.legal_mask()[POINT] == 1, action_to_notation(POINT, SIZE)


def test_forbidden_points_match_the_judge_on_100000_dense_points() -> None:
    found = compare(seed=2026, boards=850)
    assert found.points >= 100_000
    assert found.disagreements == []
    # Not won by answering ALLOWED everywhere: every kind comes up hundreds of times.
    for code in (renju.OVERLINE, renju.DOUBLE_FOUR, renju.DOUBLE_THREE):
        assert found.judged[code] >= 300, renju.FORBIDDEN_REASONS[code]
