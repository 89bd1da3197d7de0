"""How a game ends: the one end-of-game contract of the AEC, Gymnasium and vector envs.

When a game ends, every env reports the same info keys (:data:`END_INFO_KEYS`):

- ``reason``: one of :data:`END_REASONS`;
- ``winner``: ``"black"``, ``"white"`` or None (a draw, an illegal move, a truncation);
  colours everywhere: the AEC agent of colour ``c`` is named ``f"{c}_0"``;
- ``winning_line``: the winning line's points in notation, space-separated
  (``"a1 b1 c1 d1 e1"``; ``""`` if none): text, so that every info value keeps one shape
  from game to game, as Tianshou's fixed-shape buffers need
  (``board.winning_line()`` gives the actions);
- ``moves``: the stones on the board.

An illegal action adds ``illegal_move``, the message naming why. The AEC env puts these
keys in every agent's info, the Gymnasium env in the step's info, and the vector env in
per-key arrays of length ``num_envs`` with a boolean ``_key`` mask, Gymnasium's vector
convention (object arrays for the text).

:func:`end_info` builds the info of one finished game; :func:`vector_end_infos` those
of the games a vector step finished, from the codes its compiled step records
(:data:`ONGOING` ... :data:`ILLEGAL`).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import njit

from gomoku_env.batch_state import FINAL_MOVES, LINE_KEY, OUTCOME
from gomoku_env.board import COLOR_NAMES, Board
from gomoku_env.kernels import BLACK, DIRECTIONS, WHITE
from gomoku_env.legal import illegal_move_text
from gomoku_env.notation import action_to_notation

END_REASONS = (
    "five",
    "board_full",
    "no_legal_move",
    "forbidden_overline",
    "forbidden_double_four",
    "forbidden_double_three",
    "illegal_move",
    "move_limit",
)
"""How a game ends: a winning line, a full board, no point left to black (renju,
forbidden points masked: a draw), black playing a forbidden point (renju,
forbidden="lose": white wins), an illegal action (the mover loses; no winner), or the
``max_moves`` limit (the episode is truncated: a draw)."""

END_INFO_KEYS = ("reason", "winner", "winning_line", "moves")
ILLEGAL_MOVE_KEY = "illegal_move"
TRUNCATION_REASON = "move_limit"

ONGOING = 0
WON = 1
FULL = 2
NO_LEGAL_MOVE = 3
MOVE_LIMIT = 4
ILLEGAL = 5
END_CODE_REASONS = (None, "five", "board_full", "no_legal_move", "move_limit")
"""The vector step's end codes (its games mask forbidden points, so no foul ends them)
and their reasons; ILLEGAL is "illegal_move"."""
_REASONS = (*END_CODE_REASONS, "illegal_move")
# Tables by outcome_index: the reason, the winner (after an odd stone count black made
# the last move, which won where the code is WON), and whether the episode was
# truncated or terminated.
_OUTCOME_REASONS = np.array([r for r in _REASONS for _ in (0, 1)], dtype=object)
_OUTCOME_WINNERS = np.full(2 * len(_REASONS), None, dtype=object)
_OUTCOME_WINNERS[2 * WON : 2 * WON + 2] = COLOR_NAMES[WHITE], COLOR_NAMES[BLACK]
OUTCOME_TRUNCATED = np.arange(2 * len(_REASONS)) // 2 == MOVE_LIMIT
OUTCOME_TERMINATED = (np.arange(2 * len(_REASONS)) // 2 != ONGOING) & ~OUTCOME_TRUNCATED


@njit(cache=True, nogil=True, inline="always")
def outcome_index(code: int, moves: int) -> int:
    """One number for how a game ended: its end ``code`` (ONGOING ... ILLEGAL) and the
    parity of its stone count ``moves``, which tells the last mover; 0 while it goes on.
    The vector step records it; the tables above read every game's info off it."""
    return code * 2 + (moves & 1)


@njit(cache=True, nogil=True, inline="always")
def move_end_code(
    won: bool, stones: int, cells: int, blocked: bool, max_moves: int
) -> int:
    """How the move that made ``stones`` stones ends the game: WON (it made a winning
    line), FULL (no empty point left), NO_LEGAL_MOVE (renju with forbidden points
    masked: every empty point is ``blocked`` to black, who is to move), MOVE_LIMIT
    (``max_moves`` reached), else ONGOING, in that order. The one judgement of a
    move's end, made in the one step of every env
    (:func:`gomoku_env.game_step.play_move`)."""
    if won:
        return WON
    if stones == cells:
        return FULL
    if blocked:
        return NO_LEGAL_MOVE
    if stones >= max_moves:
        return MOVE_LIMIT
    return ONGOING


NOT_ENDED = 0
NO_LINE = 1
"""Line keys that name no line: a game that goes on (its text None) and one that
ended without a winning line ("")."""


@njit(cache=True, nogil=True, inline="always")
def line_key(board_size: int, start: int, direction: int, length: int) -> int:
    """One number for a winning line (first cell, DIRECTIONS index, length), from 2
    up; the vector step records it and :func:`line_texts` words it."""
    return 2 + (start * 4 + direction) * (board_size + 1) + length


def line_text(actions: tuple[int, ...] | np.ndarray, board_size: int) -> str:
    """Points in notation, space-separated ("" for none)."""
    return " ".join(action_to_notation(int(a), board_size) for a in actions)


def end_info(board: Board, reason: str, illegal_move: str | None = None) -> dict:
    """The end-of-game info of ``board``, which ended for ``reason`` (plus the
    ``illegal_move`` message when an illegal action ended it)."""
    info: dict[str, Any] = {
        "reason": reason,
        "winner": COLOR_NAMES.get(board.winner),
        "winning_line": line_text(board.winning_line(), board.size),
        "moves": len(board.moves),
    }
    if illegal_move is not None:
        info[ILLEGAL_MOVE_KEY] = illegal_move
    return info


@functools.cache
def line_texts(board_size: int, win_length: int) -> np.ndarray:
    """The text of every line the vector step can record, by :func:`line_key`:
    ``NO_LINE`` is "", keys of no possible line (and ``NOT_ENDED``) are None. A
    winning stone joins at most two runs shorter than ``win_length``, so lines are
    ``win_length`` to ``2 * win_length - 1`` long. Worded once a process for each
    board, so that the infos of a step cost one lookup for all games."""
    names = [action_to_notation(cell, board_size) for cell in range(board_size**2)]
    texts = np.empty(line_key(board_size, board_size**2, 0, 0), dtype=object)
    texts[NO_LINE] = ""
    longest = min(board_size, 2 * win_length - 1)
    for start in range(board_size**2):
        row, col = divmod(start, board_size)
        for direction, (d_row, d_col) in enumerate(DIRECTIONS.tolist()):
            for length in range(win_length, longest + 1):
                end_row = row + (length - 1) * d_row
                end_col = col + (length - 1) * d_col
                if end_row >= board_size or not 0 <= end_col < board_size:
                    break
                step = d_row * board_size + d_col
                line = (names[start + i * step] for i in range(length))
                texts[line_key(board_size, start, direction, length)] = " ".join(line)
    return texts


def vector_end_infos(ended: np.ndarray, record: np.ndarray, texts: np.ndarray) -> dict:
    """The end-of-game infos of the games ``ended`` (a boolean mask) in Gymnasium's
    vector form, from the step's per-game ``record``
    (:class:`gomoku_env.batch_state.StepOutput`, whose columns are 0 for the games
    that go on: None, or 0 moves, for them) and the board's :func:`line_texts`.
    Whole-array lookups, no loop over the games."""
    values = (
        _OUTCOME_REASONS[record[:, OUTCOME]],
        _OUTCOME_WINNERS[record[:, OUTCOME]],
        texts[record[:, LINE_KEY]],
        record[:, FINAL_MOVES].copy(),
    )
    infos: dict[str, np.ndarray] = {}
    for key, value in zip(END_INFO_KEYS, values, strict=True):
        infos[key] = value
        infos[f"_{key}"] = ended
    return infos


def vector_illegal_infos(
    codes: np.ndarray, actions: np.ndarray, board_size: int
) -> dict[str, np.ndarray]:
    """The ``illegal_move`` messages of the games whose learner ``actions`` the step
    found illegal (nonzero :func:`gomoku_env.legal.illegal_code` ``codes``), in
    Gymnasium's vector form."""
    illegal = codes != 0
    texts = np.empty(codes.size, dtype=object)
    for game in np.flatnonzero(illegal):
        texts[game] = illegal_move_text(
            int(actions[game]), board_size, int(codes[game])
        )
    return {ILLEGAL_MOVE_KEY: texts, f"_{ILLEGAL_MOVE_KEY}": illegal}
