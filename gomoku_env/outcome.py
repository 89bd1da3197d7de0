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

from typing import Any

import numpy as np

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
_CODE_REASONS = np.array([*END_CODE_REASONS, "illegal_move"], dtype=object)
# By stone count: after an odd count black made the winning move.
_WINNERS = np.array([COLOR_NAMES[WHITE], COLOR_NAMES[BLACK]], dtype=object)


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


class LineTexts:
    """The notation text of winning lines by (start, direction, length), worded once:
    the vector env's infos then cost a lookup per finished game."""

    def __init__(self, board_size: int) -> None:
        self.size = board_size
        count = board_size * board_size * 4 * (board_size + 1)
        self._texts = np.empty(count, dtype=object)
        self._known = np.zeros(count, dtype=np.bool_)

    def texts(
        self, starts: np.ndarray, directions: np.ndarray, lengths: np.ndarray
    ) -> np.ndarray:
        """An object array of line texts ("" where ``lengths`` is 0)."""
        keys = (starts * 4 + directions) * (self.size + 1) + lengths
        for key in keys[~self._known[keys]]:
            self._texts[key] = self._word(int(key))
            self._known[key] = True
        return self._texts[keys]

    def _word(self, key: int) -> str:
        rest, length = divmod(key, self.size + 1)
        start, direction = divmod(rest, 4)
        step = int(DIRECTIONS[direction, 0]) * self.size + int(DIRECTIONS[direction, 1])
        return line_text(tuple(start + i * step for i in range(length)), self.size)


def vector_end_infos(
    ended: np.ndarray,
    codes: np.ndarray,
    moves: np.ndarray,
    line: tuple[np.ndarray, np.ndarray, np.ndarray],
    texts: LineTexts,
) -> dict[str, np.ndarray]:
    """The end-of-game infos of the games ``ended`` (a boolean mask) in Gymnasium's
    vector form, from the step's per-game end ``codes``, stone counts ``moves`` and
    winning line (start, direction, length; length 0 for none)."""
    games = np.flatnonzero(ended)
    count = ended.size
    # Object arrays from np.empty hold None: the value where the mask is False.
    reasons = np.empty(count, dtype=object)
    reasons[games] = _CODE_REASONS[codes[games]]
    winners = np.empty(count, dtype=object)
    won = games[codes[games] == WON]
    winners[won] = _WINNERS[moves[won] % 2]
    lines = np.empty(count, dtype=object)
    starts, directions, lengths = line
    lines[games] = texts.texts(starts[games], directions[games], lengths[games])
    stones = np.where(ended, moves, 0)
    infos: dict[str, np.ndarray] = {}
    for key, values in zip(
        END_INFO_KEYS, (reasons, winners, lines, stones), strict=True
    ):
        infos[key] = values
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
