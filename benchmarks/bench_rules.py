"""Renju's cost: forbidden-point checks, black's whole mask, and the env against freestyle.

Positions are random mid-game 15×15 positions: games of 30 to 80 moves where each move
lands within two points of a stone already played (as in real games, so black's lines
are crowded), black never on a forbidden point, nobody has five yet. Three figures:

1. single-point checks per second (``renju.forbidden_code`` on every empty point);
2. ``Board.legal_mask()`` per position with black to move, renju (which builds black's
   forbidden mask, as the env does once per black move) against freestyle;
3. env steps per second, renju (``forbidden="mask"``) against freestyle, driven as in
   ``bench_env.py``: random legal moves from the mask, interleaved rounds, medians;
   once with uniform moves (as bench_env) and once with moves near the stones.
   Target: renju at least 0.5 × freestyle.

Run: ``python benchmarks/bench_rules.py [--rounds 7] [--seconds 1.0] [--positions 200]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import gomoku_env
from gomoku_env import Board, GameConfig, renju

RENJU_15 = GameConfig(15, 5, "renju")
NEAR = 2


def mid_game_position(rng: np.random.Generator) -> Board:
    """A renju position of 30 to 80 moves played near the earlier stones."""
    while True:
        board = Board(RENJU_15)
        board.play(112)
        length = int(rng.integers(30, 81))
        while len(board.moves) < length and not board.is_over:
            candidates = board.legal_actions()  # never black's forbidden points
            near = candidates[_near_stones(board, candidates)]
            board.play(int(rng.choice(near if near.size else candidates)))
        if not board.is_over:
            return board


def _near_stones(board: Board, candidates: np.ndarray) -> np.ndarray:
    """Which candidate points lie within NEAR (both ways) of a stone."""
    stones = np.array(board.moves)
    rows, cols = divmod(candidates[:, None], board.size)
    stone_rows, stone_cols = divmod(stones[None, :], board.size)
    close = (np.abs(rows - stone_rows) <= NEAR) & (np.abs(cols - stone_cols) <= NEAR)
    return close.any(axis=1)


def _rate(function, repeats: int) -> float:
    """Calls per second of ``function`` (the median of five timings)."""
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeats):
            function()
        timings.append((time.perf_counter() - start) / repeats)
    return 1.0 / statistics.median(timings)


def kernel_figures(positions: list[Board]) -> None:
    """Print single-point check rate and whole-mask cost against the freestyle mask."""
    black_to_move = [board for board in positions if board.to_move == 1]
    forbidden = sum(int(b.forbidden_mask().sum()) for b in black_to_move)
    print(
        f"{len(positions)} positions, {len(black_to_move)} with black to move, "
        f"{forbidden} forbidden points among them"
    )
    empties = [(b.cells, np.flatnonzero(b.cells == 0)) for b in positions]
    points = sum(len(e) for _, e in empties)

    def every_point() -> None:
        for cells, empty in empties:
            for point in empty:
                renju.forbidden_code(cells, 15, point)

    checks = _rate(every_point, 1) * points
    print(
        "single-point checks (forbidden_code):".ljust(50) + f"{checks:10,.0f} points/s"
    )

    for rule in ("freestyle", "renju"):
        cost = _legal_mask_cost(black_to_move, GameConfig(15, 5, rule))
        print(
            f"{rule} legal mask per position, fresh board:".ljust(50)
            + f"{cost:10.2f} us"
        )


def _legal_mask_cost(positions: list[Board], config: GameConfig) -> float:
    """Microseconds of ``legal_mask()`` on a board that has not computed it yet.

    Under renju that builds black's forbidden mask, as the env does once per black move.
    """
    timings = []
    for _ in range(5):
        boards = [Board.with_stones(board.moves, config) for board in positions]
        start = time.perf_counter()
        for board in boards:
            board.legal_mask()
        timings.append((time.perf_counter() - start) / len(boards))
    return 1e6 * statistics.median(timings)


class RandomPlay:
    """A 15×15 env stepped with random legal moves, reset when a game ends.

    With ``local`` the moves land within NEAR of a stone, as in real games, so black's
    lines are crowded and the forbidden mask has real work to do.
    """

    def __init__(self, rule: str, local: bool) -> None:
        self.environment = gomoku_env.env(board_size=15, rule=rule)
        self.environment.reset(seed=0)
        self.rng = np.random.default_rng(0)
        self.local = local

    def steps_per_second(self, seconds: float) -> float:
        environment, steps = self.environment, 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.reset()
                continue
            legal = np.flatnonzero(observation["action_mask"])
            board = environment.unwrapped.board
            if self.local and board.moves:
                near = legal[_near_stones(board, legal)]
                legal = near if near.size else legal
            environment.step(int(legal[self.rng.integers(legal.size)]))
            steps += 1
        return steps / (time.perf_counter() - start)


def env_figures(rounds: int, seconds: float, local: bool) -> None:
    """Print env steps/s for both rules (interleaved rounds, medians) and their ratio."""
    plays = {rule: RandomPlay(rule, local) for rule in ("freestyle", "renju")}
    rates: dict[str, list[float]] = {rule: [] for rule in plays}
    for play in plays.values():
        play.steps_per_second(0.2)  # warm-up: numba's cache, first games
    for _ in range(rounds):
        for rule, play in plays.items():
            rates[rule].append(play.steps_per_second(seconds))
    medians = {rule: statistics.median(values) for rule, values in rates.items()}
    moves = "moves near stones" if local else "uniform moves"
    for rule, rate in medians.items():
        print(f"{rule} 15x15 env(), {moves}:".ljust(50) + f"{rate:10,.0f} steps/s")
    ratio = medians["renju"] / medians["freestyle"]
    print(f"renju / freestyle, {moves}:".ljust(50) + f"{ratio:10.2f}x (target >= 0.5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=200)
    arguments = parser.parse_args()
    rng = np.random.default_rng(0)
    positions = [mid_game_position(rng) for _ in range(arguments.positions)]
    kernel_figures(positions)
    for local in (False, True):
        env_figures(arguments.rounds, arguments.seconds, local)


if __name__ == "__main__":
    main()
