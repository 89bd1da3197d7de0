"""One game as the envs see it: the state every env is a view of, and its one step.

:class:`GameState` holds the :class:`Board`, both players' observation planes, black's
renju forbidden points and the end of the game (a reason from
:data:`gomoku_env.outcome.END_REASONS`).
The PettingZoo AEC env and the Gymnasium env are thin adapters over it: they turn its
step into their rewards, infos and agent turns, and nothing else. Its step is a
one-game use of the compiled step of every env, :func:`gomoku_env.game_step.play_move`,
on the board's own cells and both observers' planes; the vector env runs the same
kernel for each game of its batch (:mod:`gomoku_env.batch_kernels`).

The envs' options (their defaults and checks) are declared in
:mod:`gomoku_env.env_options`; this module keeps what the state itself needs:
:data:`FORBIDDEN_OPTIONS`, :func:`validate_choice` and :func:`observation_box`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from gymnasium import spaces

from gomoku_env.board import Board
from gomoku_env.config import GameConfig, Rule
from gomoku_env.errors import IllegalMoveError
from gomoku_env.game_step import play_move
from gomoku_env.kernels import BLACK, EMPTY, WHITE
from gomoku_env.legal import illegal_code, illegal_move_text, legal_from_forbidden
from gomoku_env.outcome import END_CODE_REASONS, TRUNCATION_REASON, WON, end_info
from gomoku_env.planes import CHANNELS_LAST, PLANE_COUNT, ObservationPlanes
from gomoku_env.renju import FORBIDDEN_REASONS, forbidden_code

FORBIDDEN_OPTIONS = ("mask", "lose")
"""Renju's forbidden points: "mask" leaves them out of black's mask and playing one is
an illegal move; "lose" keeps them in the mask and playing one loses."""
COLORS = {"black": BLACK, "white": WHITE}
SEED_BOUND = 2**63
"""Seeds handed on to opponents are drawn below this bound."""
AGENTS = ("black_0", "white_0")
OBSERVERS = (BLACK, WHITE)
"""The observers of a game state's planes, in the order they are stored."""


def validate_choice(name: str, value: Any, accepted: tuple[str, ...]) -> str:
    """``value`` if it is one of ``accepted``; otherwise a ValueError naming both."""
    if value not in accepted:
        raise ValueError(f"unknown {name} {value!r}; expected one of {accepted}")
    return value


def observation_box(
    board_size: int, channels_first: bool = False, dtype: str = "int8"
) -> spaces.Box:
    """The observation planes of one board, channels last or first, of ``dtype``
    (one of :data:`gomoku_env.env_options.OBSERVATION_DTYPES`, checked there)."""
    shape = (board_size, board_size, PLANE_COUNT)
    if channels_first:
        shape = (PLANE_COUNT, board_size, board_size)
    return spaces.Box(0, 1, shape, dtype=np.dtype(dtype))


class GameState:
    """A game being played: position, planes, legal moves and result.

    Args:
        config: the game.
        forbidden: what black's renju forbidden points do (see
            :data:`FORBIDDEN_OPTIONS`); ignored by the other rules.
        max_moves: the stone count at which a game that has not ended is over with
            reason "move_limit" (a truncation); None for no limit (checked by
            :class:`gomoku_env.env_options.EnvOptions` in the envs).

    >>> game = GameState(GameConfig(board_size=9))
    >>> game.play(40)
    >>> game.board.moves, game.reason, int(game.legal_mask().sum())
    ([40], None, 80)
    """

    def __init__(
        self, config: GameConfig, forbidden: str = "mask", max_moves: int | None = None
    ) -> None:
        self.config = config
        self.forbidden = validate_choice("forbidden", forbidden, FORBIDDEN_OPTIONS)
        self.max_moves = config.cells if max_moves is None else max_moves
        self._renju = config.rule is Rule.RENJU
        self._rule_code = config.rule.code
        self._view_step = config.cells * PLANE_COUNT
        self._masks_forbidden = self._renju and forbidden == "mask"
        self.start_batches: dict[tuple[tuple[int, ...], int], Any] = {}
        """The one-game batches that :func:`gomoku_env.game_start.start_game` starts
        this game in, by opening and random stone count, kept between starts."""
        self.reset()

    def reset(self, opening: Iterable[int] = ()) -> None:
        """Start from the empty board and play ``opening`` (validated actions)."""
        self.board = Board(self.config)
        self.planes = ObservationPlanes(self.config.board_size)
        self._forbidden_rows = np.zeros((1, self.config.cells), dtype=np.int8)
        self._forbidden = self._forbidden_rows[0]
        self.reason: str | None = None
        for action in opening:
            self.play(action)

    @property
    def over(self) -> bool:
        """True once the game has ended (see :data:`gomoku_env.outcome.END_REASONS`)."""
        return self.reason is not None

    @property
    def truncated(self) -> bool:
        """True once the game has reached ``max_moves`` without ending otherwise."""
        return self.reason == TRUNCATION_REASON

    @property
    def winner(self) -> int:
        """BLACK, WHITE, or EMPTY while nobody has won (a draw, or not over)."""
        return self.board.winner

    def play(self, action: int) -> None:
        """Play the side to move's stone on ``action`` and judge the game, with the one
        step of every env (:func:`gomoku_env.game_step.play_move`).

        Raises:
            IllegalMoveError: the action is off the board, occupied, the game is over,
                or (renju, forbidden="mask") the point is forbidden to black; the
                game is left unchanged.
            TypeError: the action is not an integer.
        """
        board = self.board
        stones = len(board.moves)
        # One cheap test covers the common legal case; check_move explains the rest.
        if not (
            type(action) is int
            and self.reason is None
            and 0 <= action < self.config.cells
            and board.cells[action] == EMPTY
            and not (self._masks_forbidden and self._forbidden[action])
        ):
            self.check_move(action)
            action = int(action)
        loss = None
        if self._renju and stones % 2 == 0 and self._forbidden[action]:
            # Only under forbidden="lose": the stone stands and black loses.
            loss = FORBIDDEN_REASONS[forbidden_code(board.cells, board.size, action)]
        previous_move = board.moves[-1] if stones else -1
        config = self.config
        code, _ = play_move(
            board.cells,
            0,
            config.board_size,
            config.win_length,
            self._rule_code,
            self.max_moves,
            action,
            stones,
            previous_move,
            self.planes.flat,
            0,
            CHANNELS_LAST,
            self._view_step,
            OBSERVERS,
            self._forbidden_rows,
            0,
            self._masks_forbidden,
        )
        if loss is not None:
            board.note_move(action, WHITE, loss)
            self.reason = f"forbidden_{loss}"
            return
        mover = BLACK if stones % 2 == 0 else WHITE
        board.note_move(action, mover if code == WON else EMPTY)
        self.reason = END_CODE_REASONS[code]

    def check_move(self, action: Any) -> None:
        """Raise as :meth:`play` would for ``action``, without playing it."""
        if self.reason is not None and not self.board.is_over:
            raise IllegalMoveError(
                f"action {action!r}: the game is already over ({self.reason})"
            )
        board = self.board
        board.check_move(action)
        if self._masks_forbidden and not board.is_legal(action):
            # A forbidden point is an illegal move here, not a loss.
            size = board.size
            code = illegal_code(board.cells, 0, size, int(action))
            raise IllegalMoveError(illegal_move_text(int(action), size, code))

    def legal_mask(self) -> np.ndarray:
        """An int8 mask of the points the side to move may play (all 0 once over).

        Black's forbidden points are left out under forbidden="mask" and kept under
        forbidden="lose".
        """
        if self.reason is not None:
            return np.zeros(self.config.cells, dtype=np.int8)
        if not self._masks_forbidden or len(self.board.moves) % 2 == 1:
            return self.board.empty_mask()
        mask = np.empty(self.config.cells, dtype=np.int8)
        legal_from_forbidden(self.board.cells, self._forbidden, mask)
        return mask

    def observation(self, color: int) -> np.ndarray:
        """A copy of the (N, N, PLANE_COUNT) planes as seen by the ``color`` player."""
        return self.planes.view(color)

    def end_info(self, illegal_move: str | None = None) -> dict[str, Any]:
        """The end-of-game info (:func:`gomoku_env.outcome.end_info`): of the game's
        own end, or of an illegal move described by ``illegal_move``."""
        reason = self.reason if illegal_move is None else "illegal_move"
        return end_info(self.board, reason, illegal_move)
