"""VCF: a hand-built table of forced wins by fours, and positions without one.

Every line the search reports is replayed with the rules kernel: each defender move must
be the attacker's only five point, and the attacker's last move must win.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.patterns.pattern_state import new_state
from agents.patterns.threats import find_vcf, refuting_moves
from gomoku_env.board import transform_action
from gomoku_env.kernels import BLACK, WHITE, place_and_judge
from tests.agents.helpers import cells_from_diagram

# X attacks (black), O defends; each diagram sits at (top, left) on 15×15, then is
# mapped by a board symmetry. The staircases chain fours, each new stone feeding the
# next four, and end with a double four (the search may find a shorter win).
STAIRCASE_9 = [
    "....O..",
    "....X..",
    "....X..",
    ".XXX.O.",
    ".OXX...",
    ".....X.",
    ".....X.",
    ".OXXX..",
]
STAIRCASE_7 = [*STAIRCASE_9[:3], "....X.O", *STAIRCASE_9[4:]]
STAIRCASE_5 = [".....O.", ".OXXX..", ".....X.", ".....X.", ".OXXX.."]
DOUBLE_FOUR_3 = [".....O.", ".....X.", ".....X.", ".....X.", ".OXXX.."]
WINS = [
    # (name, diagram, top, left, symmetry, most plies of the designed win)
    ("broken three: fill the gap for an open four", [".XX.X."], 6, 5, 0, 3),
    ("double four", DOUBLE_FOUR_3, 3, 2, 0, 3),
    ("four, then double four", STAIRCASE_5, 3, 2, 0, 5),
    ("three fours, then double four (top edge)", STAIRCASE_7, 0, 2, 0, 7),
    ("four fours, then double four (top edge)", STAIRCASE_9, 0, 2, 0, 9),
    ("staircase mirrored into the bottom right", STAIRCASE_9, 0, 2, 2, 9),
    ("double four in the corner", [".XXX.", "X....", "X....", "X...."], 0, 0, 0, 3),
    ("four then double four against the left edge", STAIRCASE_5, 3, 0, 1, 5),
]
NO_WINS = [
    ("lone open two", ["XX"], 7, 7),
    ("three blocked on both sides", ["OXXXO"], 7, 5),
    ("one four that leads nowhere", ["OXXX.", ".....", "..O.."], 7, 5),
    ("edge three", ["XXX.O"], 14, 0),
]


def replay_is_forced_win(cells: np.ndarray, line: list[int], attacker: int) -> bool:
    """Whether ``line`` is a legal forced win by fours for ``attacker``."""
    cells = cells.copy()
    defender = WHITE if attacker == BLACK else BLACK
    for index, move in enumerate(line):
        mover = attacker if index % 2 == 0 else defender
        if cells[move] != 0:
            return False
        if mover == defender and move not in five_points(cells, attacker):
            return False
        threats = five_points(cells, defender) if mover == attacker else []
        if threats and threats != [move]:
            return False
        won = place_and_judge(cells, 15, 5, 0, move, mover)
        if won:
            return mover == attacker and index == len(line) - 1
        if mover == attacker and not five_points(cells, attacker):
            return False
    return False


def five_points(cells: np.ndarray, color: int) -> list[int]:
    """Empty points where ``color`` would complete five (brute force, rules kernel)."""
    found = []
    for point in np.flatnonzero(cells == 0):
        trial = cells.copy()
        if place_and_judge(trial, 15, 5, 0, int(point), color):
            found.append(int(point))
    return found


def search(cells: np.ndarray, color: int, plies: int = 15) -> list[int]:
    state = new_state(cells, 15, 5, 0)
    line = np.empty(plies + 1, dtype=np.int64)
    length, nodes = find_vcf(state, color, plies, 100_000, line)
    assert nodes >= 1
    assert np.array_equal(state.cells, cells)
    return [int(move) for move in line[:length]]


def placed(diagram: list[str], top: int, left: int, symmetry: int) -> np.ndarray:
    cells = cells_from_diagram(diagram, top=top, left=left)
    moved = np.zeros_like(cells)
    for point in np.flatnonzero(cells):
        moved[transform_action(int(point), 15, symmetry)] = cells[point]
    return moved


@pytest.mark.parametrize(("name", "diagram", "top", "left", "symmetry", "plies"), WINS)
def test_finds_forced_wins(
    name: str, diagram: list[str], top: int, left: int, symmetry: int, plies: int
) -> None:
    cells = placed(diagram, top, left, symmetry)
    line = search(cells, BLACK)
    assert line, name
    assert len(line) <= plies
    assert replay_is_forced_win(cells, line, BLACK), line


def test_ply_budget_is_honoured() -> None:
    cells = placed(STAIRCASE_5, 3, 2, 0)
    assert search(cells, BLACK, plies=3) == []
    assert len(search(cells, BLACK, plies=5)) == 5


@pytest.mark.parametrize(("name", "diagram", "top", "left"), NO_WINS)
def test_finds_none_without_a_forced_win(
    name: str, diagram: list[str], top: int, left: int
) -> None:
    assert search(cells_from_diagram(diagram, top=top, left=left), BLACK) == []


def test_defender_five_threat_must_be_answered() -> None:
    # black's double four would win, but white already has four in a row: black's only
    # try is to block, which makes no four, so there is no VCF
    cells = cells_from_diagram(
        ["O....", ".X...", "..X..", "...X.", "OXXX."], top=3, left=3
    )
    cells[13 * 15 + 1 : 13 * 15 + 5] = WHITE
    assert search(cells, BLACK) == []


def test_refuting_moves_stop_the_opponent_vcf() -> None:
    cells = cells_from_diagram(
        ["O....", ".X...", "..X..", "...X.", "OXXX."], top=3, left=3
    )
    state = new_state(cells, 15, 5, 0)
    candidates = np.array([7 * 15 + 7, 0, 14 * 15 + 14], dtype=np.int64)
    kept = refuting_moves(state, WHITE, candidates, 15, 10_000)
    assert kept.tolist() == [7 * 15 + 7]
