"""The ``renju`` package from PyPI, a port of the Piskvork judge, as an oracle for
:mod:`gomoku_env.renju` on dense random positions.

The judge's forbidden-point check is the reference Gomocup tournaments are played
under; Rapfi's ``checkForbiddenPoint`` agrees with it. A position here is a 15×15 board
filled at random (a quarter to three fifths of its points, black and white in roughly
equal shares), denser than real games so that crowded lines, nested threes and the
rare shapes come up often; every empty point of it is asked of both.

Run once, larger than the suite does, with::

    python -m tests.renju_oracle --boards 40000 --seed 1
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from renju.check_forbid import ForbidChecker

from gomoku_env import renju
from gomoku_env.kernels import BLACK, EMPTY, WHITE

SIZE = 15
JUDGE_CODES = {
    0: renju.ALLOWED,
    1: renju.DOUBLE_THREE,
    2: renju.DOUBLE_FOUR,
    3: renju.OVERLINE,
}
"""The judge's foul numbers as gomoku_env's codes."""


def dense_position(rng: np.random.Generator) -> np.ndarray:
    """A flat 15×15 cell array filled at random, denser than a real game."""
    density = rng.uniform(0.25, 0.6)
    black_share = rng.uniform(0.4, 0.6)
    draws = rng.random(SIZE * SIZE)
    return np.where(
        draws < density * black_share,
        BLACK,
        np.where(draws < density, WHITE, EMPTY),
    ).astype(np.int8)


def judge_codes(cells: np.ndarray) -> np.ndarray:
    """The judge's code for black on every point of ``cells`` (ALLOWED where occupied).

    One checker per position, asked point by point through its own recursive entry
    (``foulr``, which puts back what it changes): four times faster than building
    a checker a point with ``get_foul_type``, and the same answers.
    """
    grid = [[int(value) for value in row] for row in cells.reshape(SIZE, SIZE)]
    checker = ForbidChecker(grid, 0, 0)
    codes = np.zeros(cells.size, dtype=np.int8)
    for point in np.flatnonzero(cells == EMPTY):
        row, col = divmod(int(point), SIZE)
        codes[point] = JUDGE_CODES[checker.foulr(row, col, 0)]
    return codes


@dataclass
class Comparison:
    """What :func:`compare` found."""

    points: int = 0
    """empty points asked of both"""
    judged: Counter[int] = field(default_factory=Counter)
    """how many points the judge gave each code"""
    disagreements: list[tuple[int, int, int, int]] = field(default_factory=list)
    """(position, point, our code, the judge's code) where the two differ"""


def compare(seed: int, boards: int) -> Comparison:
    """Ask both for every empty point of ``boards`` dense positions drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    found = Comparison()
    for board in range(boards):
        cells = dense_position(rng)
        ours = renju.forbidden_codes(cells, SIZE)
        judge = judge_codes(cells)
        empty = cells == EMPTY
        found.points += int(np.count_nonzero(empty))
        found.judged.update(judge[empty].tolist())
        found.disagreements += [
            (board, int(point), int(ours[point]), int(judge[point]))
            for point in np.flatnonzero(ours != judge)
        ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    found = compare(args.seed, args.boards)
    kinds = {
        renju.FORBIDDEN_REASONS[code]: n for code, n in sorted(found.judged.items())
    }
    print(
        f"{args.boards} positions, {found.points} points, judged {kinds}, "
        f"{len(found.disagreements)} disagreements "
        f"({time.perf_counter() - started:.0f} s)"
    )
    for board, point, ours, judge in found.disagreements[:10]:
        print(f"  position {board}, point {point}: ours {ours}, judge {judge}")


if __name__ == "__main__":
    main()
