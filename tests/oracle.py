"""Independent plain-Python oracles for the rules, written without the kernels."""

from __future__ import annotations

import numpy as np


def maximal_runs(cells: np.ndarray, size: int, color: int) -> list[list[int]]:
    """Every maximal straight run of ``color`` stones, scanning the whole board."""
    grid = cells.reshape(size, size)
    runs = []
    for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for row in range(size):
            for col in range(size):
                if grid[row, col] != color:
                    continue
                before_row, before_col = row - d_row, col - d_col
                if (
                    0 <= before_row < size
                    and 0 <= before_col < size
                    and grid[before_row, before_col] == color
                ):
                    continue  # not the start of a run
                run = []
                r, c = row, col
                while 0 <= r < size and 0 <= c < size and grid[r, c] == color:
                    run.append(r * size + c)
                    r, c = r + d_row, c + d_col
                runs.append(run)
    return runs


def has_winning_line(
    cells: np.ndarray, size: int, win_length: int, color: int, exact: bool
) -> bool:
    """Whether ``color`` has a run of ``win_length`` (exactly, if ``exact``) or more."""
    lengths = [len(run) for run in maximal_runs(cells, size, color)]
    if exact:
        return win_length in lengths
    return any(length >= win_length for length in lengths)


def stone_wins(
    cells: np.ndarray, size: int, win_length: int, action: int, exact: bool
) -> bool:
    """Whether the stone on ``action`` lies in a run of ``win_length`` (exactly, if
    ``exact``) or more of its colour."""
    for run in maximal_runs(cells, size, int(cells[action])):
        if action in run and (
            len(run) == win_length if exact else len(run) >= win_length
        ):
            return True
    return False


def move_wins(
    cells: np.ndarray, size: int, win_length: int, rule: str, action: int, color: int
) -> bool:
    """Whether a ``color`` stone on ``action`` wins under ``rule`` (a rule name):
    freestyle ``win_length`` or more, standard exactly, renju exactly for black and
    more for white."""
    trial = cells.copy()
    trial[action] = color
    exact = rule == "standard" or (rule == "renju" and color == 1)
    return stone_wins(trial, size, win_length, action, exact)


def observation_planes(
    cells: np.ndarray, size: int, to_move: int, last_move: int, forbidden: np.ndarray
) -> np.ndarray:
    """The (size, size, 5) planes of the env's documented layout, seen by ``to_move``:
    own stones, opponent stones, last move, observer is black, forbidden points."""
    planes = np.zeros((size * size, 5), dtype=np.int8)
    planes[:, 0] = cells == to_move
    planes[:, 1] = (cells != 0) & (cells != to_move)
    if last_move >= 0:
        planes[last_move, 2] = 1
    planes[:, 3] = to_move == 1
    planes[:, 4] = forbidden
    return planes.reshape(size, size, 5)
