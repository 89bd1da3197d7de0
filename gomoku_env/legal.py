"""Which moves are legal: the action check and the legal-point kernels.

:func:`check_action` (one action) and :func:`check_actions` (one per game of a vector
env) hold the action contract that every env shares: an action is an integer (a Python
int, a NumPy integer, or an integer array of one element); anything else (a float, a
bool, a string) is a TypeError in every env, whatever its illegal-action option says,
since it is a caller's bug rather than a move. An integer off the board is an illegal
move, judged like an occupied point. The board (and so the game state and the
openings, which play through it), the Gymnasium env, the vector env and the game loop
call them.

:func:`is_legal_point` answers "may the side to move play this point": every empty
point, except black's renju forbidden points (overline, double four, double three:
:mod:`gomoku_env.renju`). The board's ``is_legal`` (and so the game state's check), the
vector env's compiled step (per game) and the search (its tree, leaf expansion, rollouts
and winning points) ask it. :func:`is_legal_in_place` is the same rule for the pattern
state of :mod:`agents.patterns`, which owns its cells: renju's trial stones go on them.
:func:`legal_mask_into` writes the rule for a whole board, finding black's forbidden
points with renju's whole-board sweep: the search's candidate and evaluator masks, the
batched heuristic's scores and the pattern move scores use it.
:func:`legal_from_forbidden` (and :func:`is_legal_given`, one point) apply the rule to
forbidden points a caller keeps per position: the board's and the vector env's renju
masks, the heuristic agent's scores, and the vector env's random moves and opening
points. Where nothing can be forbidden (not renju, or white to move) the board's and
the vector env's masks are the empty points as they stand, which a copy or one compare
gives cheaper than a compiled call; the tests check those masks against
:func:`legal_mask_into`.

:func:`illegal_code` and :func:`illegal_move_text` say why an action is illegal, in the
same words in every env."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gomoku_env.errors import IllegalMoveError
from gomoku_env.kernels import BLACK, EMPTY, RENJU
from gomoku_env.notation import action_to_notation
from gomoku_env.renju import (
    ALLOWED,
    FORBIDDEN_REASONS,
    code_of_move,
    forbidden_code,
    forbidden_codes,
    may_be_forbidden,
)

OFF_BOARD = 1
OCCUPIED_BY_BLACK = 2
OCCUPIED_BY_WHITE = 3
FORBIDDEN = 4
"""Codes of :func:`illegal_code`: OFF_BOARD, OCCUPIED_BY_BLACK or OCCUPIED_BY_WHITE, or
FORBIDDEN plus renju's forbidden code (4 + OVERLINE, ...)."""


def check_action(action: object, cells: int) -> int:
    """``action`` as a Python int if it is an integer from 0 to ``cells`` - 1 (the
    board's points, as many as its action mask has).

    Integers are Python ints, NumPy integers and integer arrays of one element (as
    vectorized wrappers pass a single env's action).

    Raises:
        TypeError: a bool, or not an integer; the message names the value.
        IllegalMoveError: an integer off the board, named in the message.
    """
    action = check_action_type(action)
    if not 0 <= action < cells:
        board_size = math.isqrt(cells)
        raise IllegalMoveError(illegal_move_text(int(action), board_size, OFF_BOARD))
    return int(action)


def check_action_type(action: object) -> int:
    """``action`` as a Python int if it is an integer (a Python int, a NumPy integer
    or an integer array of one element); a TypeError naming it otherwise (a bool
    too), whatever its range."""
    if (
        isinstance(action, np.ndarray)
        and action.size == 1
        and action.dtype.kind in "iu"
    ):
        return int(action.reshape(()).item())
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action must be an int, got {_shown(action)}")
    return int(action)


def check_actions(actions: object, games: int) -> np.ndarray:
    """``actions`` as an int64 array of ``games`` actions, one per game, each judged
    by :func:`check_action`'s type rule (a list is checked element by element, so
    ``[True]`` is refused, not read as 1). Off-board values are left for the env to
    judge as illegal moves.

    Raises:
        ValueError: not ``games`` actions.
        TypeError: an action that is not an integer, named with its game.
    """
    if not isinstance(actions, np.ndarray):
        values = list(actions) if isinstance(actions, (list, tuple)) else [actions]
        for game, action in enumerate(values):
            try:
                values[game] = check_action_type(action)
            except TypeError as error:
                raise TypeError(f"game {game}: {error}") from None
        actions = np.asarray(values, dtype=np.int64)
    if actions.shape != (games,):
        raise ValueError(f"actions must be {games} integers, got shape {actions.shape}")
    if actions.dtype.kind not in "iu":
        raise TypeError(f"actions must be integers, got an array of {actions.dtype}")
    return actions.astype(np.int64, copy=False)


def _shown(value: object) -> str:
    """``value``'s repr, cut to a length that fits one line of an error."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


@njit(cache=True, nogil=True, inline="always")
def is_legal_point(
    cells: np.ndarray,
    size: int,
    rule_code: int,
    action: int,
    color: int,
    base: int = 0,
) -> bool:
    """Whether ``color`` may play on the on-board ``action``: the legal-move rule.

    The board is ``cells[base:base + size * size]`` (``base`` > 0 for one game of a
    batch stored flat, as in :func:`gomoku_env.kernels.judge_stone`). One expression
    with no early return: inlined into the vector env's step, a helper's early return
    cost 12-15% of a 1024-game step. The renju entry point is called with int64
    arguments so that its recursive kernel is never compiled for new types.
    """
    return cells[base + action] == EMPTY and (
        rule_code != RENJU
        or color != BLACK
        or forbidden_at(cells, base, size, action) == ALLOWED
    )


@njit(cache=True, nogil=True)
def forbidden_at(cells: np.ndarray, base: int, size: int, action: int) -> int:
    """Renju's forbidden code of ``action`` on the board at ``base``: a real call,
    so that the slice is made only where renju asks."""
    board = cells[base : base + size * size]
    return forbidden_code(board, np.int64(size), np.int64(action))


@njit(cache=True, nogil=True)
def is_legal_in_place(
    cells: np.ndarray, size: int, rule_code: int, action: int, color: int
) -> bool:
    """:func:`is_legal_point` for a caller that owns ``cells`` (the pattern state):
    renju's trial stones go on ``cells`` itself and are taken back, with no copy."""
    return cells[action] == EMPTY and (
        rule_code != RENJU
        or color != BLACK
        or not may_be_forbidden(cells, size, action)
        or code_of_move(cells, size, action) == ALLOWED
    )


@njit(cache=True, nogil=True, inline="always")
def is_legal_given(cell: int, forbidden: int) -> bool:
    """The rule on one point whose forbidden code the caller keeps per position:
    empty and not forbidden. ``forbidden`` is renju's code or a 0/1 flag (0 is
    ALLOWED, as on every point where the rule or the colour forbids nothing)."""
    return (cell == EMPTY) & (forbidden == ALLOWED)


@njit(cache=True, nogil=True)
def legal_from_forbidden(
    cells: np.ndarray, forbidden: np.ndarray, out: np.ndarray
) -> None:
    """Write the legal mask (1/0, or True/False into a boolean ``out``) of a position
    whose forbidden points are kept (``forbidden``, one per cell, as
    :func:`is_legal_given` reads it) into ``out``. Flat arrays of one size: several
    games' boards may be passed back to back. No count: summing in the same loop
    keeps it from being vectorised (three times slower over a vector env's games)."""
    for action in range(cells.size):
        out[action] = is_legal_given(cells[action], forbidden[action])


@njit(cache=True, nogil=True)
def legal_mask_into(
    cells: np.ndarray, size: int, rule_code: int, color: int, out: np.ndarray
) -> int:
    """Write the legal-move mask (1/0) of ``color`` into ``out``; return the count.

    :func:`is_legal_point`'s rule for every point, with black's renju forbidden points
    found in one sweep (:func:`gomoku_env.renju.forbidden_codes`).
    """
    if rule_code == RENJU and color == BLACK:
        codes = forbidden_codes(cells, np.int64(size))
    else:
        codes = np.zeros(cells.size, dtype=np.int8)
    legal_from_forbidden(cells, codes, out)
    count = 0
    for action in range(out.size):
        count += out[action]
    return count


@njit(cache=True, nogil=True)
def illegal_code(cells: np.ndarray, base: int, size: int, action: int) -> int:
    """Why ``action`` is not legal (a code of :data:`OFF_BOARD`'s family), for an
    action that is off the board or that :func:`is_legal_point` refused."""
    if not 0 <= action < size * size:
        return OFF_BOARD
    if cells[base + action] != EMPTY:
        return OCCUPIED_BY_BLACK + cells[base + action] - BLACK
    board = cells[base : base + size * size]
    return FORBIDDEN + forbidden_code(board, np.int64(size), np.int64(action))


def illegal_move_text(action: int, board_size: int, code: int) -> str:
    """The message naming why ``action`` is illegal, by its :func:`illegal_code`."""
    if code == OFF_BOARD:
        cells = board_size * board_size
        return (
            f"action {action} is off the {board_size}x{board_size} board "
            f"(valid actions are 0..{cells - 1})"
        )
    if code in (OCCUPIED_BY_BLACK, OCCUPIED_BY_WHITE):
        color = "black" if code == OCCUPIED_BY_BLACK else "white"
        return f"action {action} is occupied by {color}"
    point = action_to_notation(action, board_size)
    return (
        f"action {action} ({point}) is forbidden to black under renju: "
        f"{FORBIDDEN_REASONS[code - FORBIDDEN]}"
    )
