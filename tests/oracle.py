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
