"""One move of one game, compiled: the step that every env runs.

:func:`play_move` places the side to move's stone, judges it
(:func:`gomoku_env.kernels.judge_stone`), writes the change into the observers' planes
(:mod:`gomoku_env.planes`), finds black's renju forbidden points for the next move
(:func:`gomoku_env.renju.forbidden_codes`) and says how the move ends the game
(:func:`gomoku_env.outcome.move_end_code`). It is the one step implementation: the
single-game state of the AEC and Gymnasium envs (:class:`gomoku_env.game_state.GameState`)
calls it once per move on its own board, with the black and the white observers'
planes; the vector env's kernels (:mod:`gomoku_env.batch_kernels`) inline it for each
game of a batch, at that game's offset, with the learner's planes only.

The caller keeps what only it needs: the game state its history and a Board for
readers, the batch its lists of empty points for O(1) random moves.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gomoku_env.kernels import BLACK, RENJU, WHITE, judge_stone
from gomoku_env.outcome import move_end_code
from gomoku_env.planes import write_forbidden, write_move
from gomoku_env.renju import ALLOWED, forbidden_codes


@njit(cache=True, nogil=True)
def update_forbidden(
    cells: np.ndarray,
    base: int,
    size: int,
    black_to_move: bool,
    planes: np.ndarray,
    planes_base: int,
    stride: tuple[int, int],
    view_step: int,
    observers: tuple[int, ...],
    forbidden: np.ndarray,
    row: int,
) -> int:
    """Renju after a move: row ``row`` of ``forbidden`` (one flag per point) gets
    black's forbidden points of the board at ``base`` if black is to move in a game
    that goes on, else zeros, and so does the forbidden channel of a black observer;
    their number. A real call, not inlined: inlined into every move of the vector
    env's kernels, its loops made the step a fifth slower under every rule."""
    count = size * size
    banned_count = 0
    if black_to_move:
        codes = forbidden_codes(cells[base : base + count], size)
        for cell in range(count):
            banned = codes[cell] != ALLOWED
            forbidden[row, cell] = banned
            banned_count += banned
    else:
        for cell in range(count):
            forbidden[row, cell] = 0
    for view in range(len(observers)):
        if observers[view] == BLACK:
            view_base = planes_base + view * view_step
            write_forbidden(planes, view_base, stride, forbidden[row])
    return banned_count


@njit(cache=True, nogil=True, inline="always")
def play_move(
    cells: np.ndarray,
    base: int,
    size: int,
    win_length: int,
    rule_code: int,
    max_moves: int,
    action: int,
    stones: int,
    previous_move: int,
    planes: np.ndarray,
    planes_base: int,
    stride: tuple[int, int],
    view_step: int,
    observers: tuple[int, ...],
    forbidden: np.ndarray,
    row: int,
    forbidden_masked: bool,
) -> tuple[int, int]:
    """Play the side to move's stone on the empty ``action`` of the board at
    ``cells[base:]`` that holds ``stones`` stones; the move's end code
    (:func:`gomoku_env.outcome.move_end_code`) and the number of points forbidden to
    black after it.

    The planes of the observers ``observers`` (their colours) lie in ``planes`` from
    ``planes_base``, ``view_step`` apart, with ``stride`` as in
    :mod:`gomoku_env.planes`; ``previous_move`` (-1: none) loses its last-move marker.
    Under renju row ``row`` of ``forbidden`` receives black's forbidden points while
    black is to move (zeros otherwise), and so does a black observer's forbidden
    channel; with ``forbidden_masked`` (forbidden points are not moves) a position
    that leaves black only forbidden points ends the game (NO_LEGAL_MOVE); without it
    black must play one and lose, which the caller judges. The observers come as a
    tuple and the game's flags as a row of the caller's array, not as array views
    made per move.
    """
    color = BLACK if stones % 2 == 0 else WHITE
    cells[base + action] = color
    won = judge_stone(cells, base, size, win_length, rule_code, action, color) >= 0
    for view in range(len(observers)):
        view_base = planes_base + view * view_step
        own = color == observers[view]
        write_move(planes, view_base, stride, action, previous_move, own)
    stones += 1
    count = size * size
    banned_count = 0
    if rule_code == RENJU:
        black_to_move = not won and stones < count and stones % 2 == 0
        banned_count = update_forbidden(
            cells, base, size, black_to_move, planes, planes_base, stride,
            view_step, observers, forbidden, row,
        )  # fmt: skip
    blocked = forbidden_masked and banned_count == count - stones
    return move_end_code(won, stones, count, blocked, max_moves), banned_count
