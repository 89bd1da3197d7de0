"""Plain-Python twin of gomoku_env.renju: the oracle the renju tests compare against.

Written from the rule's wording rather than from the kernels: a line is read into a list
of eleven values around the point, fours are counted as distinct sets of four stones
that one move turns into an exact five, and threes are tried by playing every point of
the line and asking (recursively, on a copy of the grid) whether that point is allowed
and makes no five (a point that makes five ends a four, not a three: the Piskvork
judge's and Rapfi's reading).
"""

from __future__ import annotations

import numpy as np

EMPTY, BLACK, WALL = 0, 1, 3
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
REACH = 5


def _line(
    grid: list[list[int]], row: int, col: int, d_row: int, d_col: int
) -> list[int]:
    """Values at offsets -REACH..REACH from (row, col) along a direction; WALL off-board."""
    size = len(grid)
    values = []
    for offset in range(-REACH, REACH + 1):
        r, c = row + offset * d_row, col + offset * d_col
        values.append(grid[r][c] if 0 <= r < size and 0 <= c < size else WALL)
    return values


def _run_through_centre(line: list[int]) -> int:
    left = REACH
    while left > 0 and line[left - 1] == BLACK:
        left -= 1
    right = REACH
    while right < len(line) - 1 and line[right + 1] == BLACK:
        right += 1
    return right - left + 1


def _makes_exact_five(line: list[int], start: int) -> bool:
    """Whether the window of five from ``start`` is all black with no black beside it."""
    window = line[start : start + 5]
    before = line[start - 1] if start > 0 else WALL
    after = line[start + 5] if start + 5 < len(line) else WALL
    return all(v == BLACK for v in window) and before != BLACK and after != BLACK


def _four_stone_sets(line: list[int]) -> set[frozenset[int]]:
    """Distinct sets of four stones (with the centre) that one empty point makes five."""
    fours = set()
    for start in range(REACH - 4, REACH + 1):
        window = range(start, start + 5)
        empties = [i for i in window if line[i] == EMPTY]
        if len(empties) != 1 or sum(line[i] == BLACK for i in window) != 4:
            continue
        trial = list(line)
        trial[empties[0]] = BLACK
        if _makes_exact_five(trial, start):
            fours.add(frozenset(i for i in window if line[i] == BLACK))
    return fours


def _is_straight_four(line: list[int]) -> bool:
    """Whether the centre is in four in a row whose two ends each make an exact five."""
    for start in range(REACH - 3, REACH + 1):
        if all(line[i] == BLACK for i in range(start, start + 4)):
            ends = (start - 1, start + 4)
            if all(line[e] == EMPTY for e in ends):
                return all(
                    _makes_exact_five(_with(line, e), min(e, start)) for e in ends
                )
    return False


def _with(line: list[int], index: int) -> list[int]:
    trial = list(line)
    trial[index] = BLACK
    return trial


def reason(grid: list[list[int]], row: int, col: int) -> str | None:
    """Why black may not play the empty (row, col) on ``grid``, or None."""
    verdict = _verdict(grid, row, col)
    return None if verdict == "five" else verdict


def _verdict(grid: list[list[int]], row: int, col: int) -> str | None:
    """:func:`reason`, but "five" where black's stone on (row, col) makes five."""
    if grid[row][col] != EMPTY:
        return None
    grid = [list(r) for r in grid]
    grid[row][col] = BLACK
    lines = [_line(grid, row, col, dr, dc) for dr, dc in DIRECTIONS]
    runs = [_run_through_centre(line) for line in lines]
    if 5 in runs:
        return "five"
    if max(runs) > 5:
        return "overline"
    four_counts = [len(_four_stone_sets(line)) for line in lines]
    if sum(four_counts) >= 2:
        return "double_four"
    threes = 0
    for (d_row, d_col), line, fours in zip(DIRECTIONS, lines, four_counts, strict=True):
        if fours == 0 and _has_real_three(grid, row, col, d_row, d_col, line):
            threes += 1
    return "double_three" if threes >= 2 else None


def _has_real_three(
    grid: list[list[int]], row: int, col: int, d_row: int, d_col: int, line: list[int]
) -> bool:
    for offset in range(-4, 5):
        if line[REACH + offset] != EMPTY or not _is_straight_four(
            _with(line, REACH + offset)
        ):
            continue
        if _verdict(grid, row + offset * d_row, col + offset * d_col) is None:
            return True
    return False


def reasons(cells: np.ndarray, size: int) -> list[str | None]:
    """The oracle's answer for every point of a flat cell array."""
    grid = [[int(v) for v in cells[r * size : (r + 1) * size]] for r in range(size)]
    return [reason(grid, a // size, a % size) for a in range(size * size)]
