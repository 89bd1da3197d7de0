"""The rules core: a Gomoku position that can play, undo and judge moves.

:class:`Board` is the single source of truth for a game. The PettingZoo env, the gym env,
the renderers and the search agents all read it; only the compiled kernels in
:mod:`gomoku_env.kernels` touch the cells in hot paths.

The 8 symmetries of the square board (4 rotations, each optionally mirrored) are given
as permutations of cell indices (:func:`symmetry_permutations`): ``cells[permutation]``
is the transformed board, and the same permutation maps policy targets, so data
augmentation moves planes and visit distributions together.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from gomoku_env import kernels, legal, renju
from gomoku_env.config import GameConfig
from gomoku_env.errors import IllegalMoveError
from gomoku_env.kernels import BLACK, EMPTY, WHITE

SYMMETRY_COUNT = 8


@lru_cache(maxsize=32)
def symmetry_permutations(board_size: int) -> np.ndarray:
    """A read-only (8, size*size) array: row s gathers the cells of symmetry s.

    Row 0 is the identity; rows 1-3 rotate by 90°, 180°, 270°; rows 4-7 are rows 0-3
    mirrored left to right.
    """
    grid = np.arange(board_size * board_size).reshape(board_size, board_size)
    rows = []
    for mirrored in (False, True):
        base = np.fliplr(grid) if mirrored else grid
        rows.extend(np.rot90(base, turns).ravel() for turns in range(4))
    permutations = np.stack(rows)
    permutations.flags.writeable = False
    return permutations


@lru_cache(maxsize=32)
def inverse_permutations(board_size: int) -> np.ndarray:
    """Row s sends an action on the original board to its place on the transformed one."""
    forward = symmetry_permutations(board_size)
    inverse = np.empty_like(forward)
    columns = np.arange(forward.shape[1])
    for symmetry in range(SYMMETRY_COUNT):
        inverse[symmetry, forward[symmetry]] = columns
    inverse.flags.writeable = False
    return inverse


def transform_cells(cells: np.ndarray, board_size: int, symmetry: int) -> np.ndarray:
    """Flat per-cell values (cells, a policy, a mask) under ``symmetry``."""
    return cells[..., symmetry_permutations(board_size)[symmetry]]


def transform_action(action: int, board_size: int, symmetry: int) -> int:
    """Where ``action`` lands under ``symmetry``."""
    return int(inverse_permutations(board_size)[symmetry, action])


def transform_planes(planes: np.ndarray, symmetry: int) -> np.ndarray:
    """Channels-last planes (..., H, W, C) under ``symmetry``."""
    size = planes.shape[-2]
    flat = planes.reshape(*planes.shape[:-3], size * size, planes.shape[-1])
    moved = flat[..., symmetry_permutations(size)[symmetry], :]
    return moved.reshape(planes.shape)


COLOR_NAMES = {BLACK: "black", WHITE: "white"}


class Board:
    """A position: stones on the board, the moves that led there, and the result.

    Args:
        config: the game's size, win length and rule (defaults to 15×15 freestyle five).

    >>> board = Board(GameConfig(board_size=9))
    >>> board.play(40)
    >>> board.to_move == WHITE, board.moves
    (True, [40])
    >>> board.undo()
    40
    """

    def __init__(self, config: GameConfig | None = None) -> None:
        self.config = config if config is not None else GameConfig()
        self.size = self.config.board_size
        self._rule_code = self.config.rule.code
        self._win_length = self.config.win_length
        self._cell_count = self.config.cells
        self.cells = np.zeros(self.config.cells, dtype=np.int8)
        self._empty = np.ones(self.config.cells, dtype=np.int8)
        self.moves: list[int] = []
        self.winner = EMPTY
        self.forbidden_loss: str | None = None
        self._renju = self._rule_code == kernels.RENJU
        self._forbidden_codes: np.ndarray | None = None

    @classmethod
    def from_moves(
        cls, moves: Iterable[int], config: GameConfig | None = None
    ) -> Board:
        """The position reached by playing ``moves`` (actions) from the empty board."""
        board = cls(config)
        for action in moves:
            board.play(int(action))
        return board

    @classmethod
    def with_stones(cls, moves: list[int], config: GameConfig | None = None) -> Board:
        """A board holding ``moves`` (black first, alternating) without judging each one.

        For positions whose move order is unknown, such as those rebuilt from planes:
        the caller promises that the position is not a finished game.
        """
        board = cls(config)
        board.cells[moves[0::2]] = BLACK
        board.cells[moves[1::2]] = WHITE
        board._empty[moves] = 0
        board.moves = list(moves)
        return board

    @property
    def to_move(self) -> int:
        """Colour of the side to move: BLACK on even move counts, WHITE on odd."""
        return BLACK if len(self.moves) % 2 == 0 else WHITE

    @property
    def last_move(self) -> int | None:
        """The most recent action, or None on an empty board."""
        return self.moves[-1] if self.moves else None

    @property
    def is_full(self) -> bool:
        """True when no empty point is left."""
        return len(self.moves) == self.config.cells

    @property
    def is_draw(self) -> bool:
        """True when the board filled up with nobody winning."""
        return self.winner == EMPTY and self.is_full

    @property
    def is_over(self) -> bool:
        """True once somebody has won or the board is full."""
        return self.winner != EMPTY or self.is_full

    @property
    def grid(self) -> np.ndarray:
        """The cells as a (size, size) view: row 0 is the top row (row 'size' in notation)."""
        return self.cells.reshape(self.size, self.size)

    def legal_mask(self) -> np.ndarray:
        """An int8 mask over actions: 1 where the side to move may play (all 0 once over).

        Under renju black's forbidden points are 0: playing one loses (see :meth:`play`).
        """
        if self.winner != EMPTY:
            return np.zeros(self._cell_count, dtype=np.int8)
        if not self._renju or len(self.moves) % 2 == 1:
            # Nothing is forbidden, so the rule leaves the empty points.
            return self.empty_mask()
        mask = np.empty(self._cell_count, dtype=np.int8)
        legal.legal_from_forbidden(self.cells, self._black_codes(), mask)
        return mask

    def empty_mask(self) -> np.ndarray:
        """An int8 mask of the empty points (all zero on a full board): a copy of the
        one the board keeps, which costs a tenth of a compiled call."""
        return self._empty.copy()

    def legal_actions(self) -> np.ndarray:
        """The legal actions, in increasing order."""
        return np.flatnonzero(self.legal_mask())

    def is_legal(self, action: int) -> bool:
        """Whether the side to move may play ``action`` now (not on a forbidden point):
        the rule of :func:`gomoku_env.legal.is_legal_point`."""
        return (
            not self.is_over
            and 0 <= action < self._cell_count
            and legal.is_legal_point(
                self.cells, self.size, self._rule_code, int(action), self.to_move
            )
        )

    def check_move(self, action: int) -> None:
        """Raise :class:`IllegalMoveError` naming the reason if ``action`` may not be
        played: off the board, occupied or the game over (a forbidden point may: it
        loses, see :meth:`play`); TypeError if it is not an integer."""
        action = legal.check_action(action, self._cell_count)
        if self.is_over:
            raise IllegalMoveError(f"action {action}: the game is already over")
        if self.cells[action] != EMPTY:
            code = legal.illegal_code(self.cells, 0, self.size, action)
            raise IllegalMoveError(legal.illegal_move_text(action, self.size, code))

    def play(self, action: int) -> None:
        """Place the side to move's stone on ``action`` and update the result.

        Raises:
            IllegalMoveError: the action is off the board, occupied, or the game is over;
                the board is left unchanged.
            TypeError: the action is not an integer.

        Under renju a black move on a forbidden point, which :meth:`legal_mask` and
        :meth:`is_legal` leave out, is still accepted and loses, as in tournament play:
        ``winner`` becomes WHITE and ``forbidden_loss`` names the shape.
        """
        # One cheap test covers the common legal case; the slow path explains the rest.
        if not (
            type(action) is int
            and self.winner == EMPTY
            and 0 <= action < self._cell_count
            and self._empty[action]
        ):
            self.check_move(action)
            action = int(action)
        color = BLACK if len(self.moves) % 2 == 0 else WHITE
        forbidden = self._renju and color == BLACK and self.forbidden_reason(action)
        if forbidden:
            # Tournament renju: the stone stands and black loses on the spot.
            self.cells[action] = BLACK
            self.note_move(action, WHITE, forbidden)
            return
        won = kernels.place_and_judge(
            self.cells, self.size, self._win_length, self._rule_code, action, color
        )
        self.note_move(action, color if won else EMPTY)

    def note_move(
        self, action: int, winner: int, forbidden_loss: str | None = None
    ) -> None:
        """Record a move whose stone is already on ``cells`` and judged: its place in
        the history, and the result (``winner``, and under renju the shape of a
        forbidden point that lost). :meth:`play` ends with it; the envs' game state
        calls it after the compiled step (:func:`gomoku_env.game_step.play_move`) has
        placed and judged the stone on this board's cells."""
        self.winner = winner
        self.forbidden_loss = forbidden_loss
        self._forbidden_codes = None
        self._empty[action] = 0
        self.moves.append(action)

    def undo(self) -> int:
        """Take back the last move and return it; the position is exactly as before it."""
        if not self.moves:
            raise IllegalMoveError("cannot undo: no moves have been played")
        action = self.moves.pop()
        self.cells[action] = EMPTY
        self._empty[action] = 1
        self.winner = EMPTY
        self.forbidden_loss = None
        self._forbidden_codes = None
        return action

    def forbidden_reason(self, action: int) -> str | None:
        """Why the side to move may not play the empty ``action`` under renju, or None.

        "overline", "double_four" or "double_three" for black under renju; None for an
        allowed or occupied point, for white, and under the other rules. Playing such a
        point anyway loses (see :meth:`play`); the env can mask it out instead.
        """
        action = legal.check_action(action, self._cell_count)
        if not self._renju or len(self.moves) % 2 == 1:
            return None
        if self._forbidden_codes is not None:
            code = self._forbidden_codes[action]
        else:
            code = renju.forbidden_code(self.cells, self.size, int(action))
        return renju.FORBIDDEN_REASONS[code]

    def forbidden_mask(self) -> np.ndarray:
        """An int8 mask with 1 on the points forbidden to the side to move.

        All zero for white, under other rules and once the game is over. Computed once
        per position (cached until the next play or undo), so the env and a search can
        both ask for it.
        """
        if not self._renju or len(self.moves) % 2 == 1 or self.is_over:
            return np.zeros(self._cell_count, dtype=np.int8)
        return (self._black_codes() != renju.ALLOWED).view(np.int8)

    def _black_codes(self) -> np.ndarray:
        """Renju's forbidden code of every point for black, found once per position."""
        if self._forbidden_codes is None:
            self._forbidden_codes = renju.forbidden_codes(self.cells, self.size)
        return self._forbidden_codes

    def winning_line(self) -> tuple[int, ...]:
        """The cells of the winning line (empty when nobody has won)."""
        if self.winner == EMPTY or self.forbidden_loss is not None:
            return ()
        action = self.moves[-1]
        direction = kernels.winning_direction(
            self.cells, self.size, self.config.win_length, self._rule_code, action
        )
        return tuple(
            int(cell)
            for cell in kernels.line_cells(self.cells, self.size, action, direction)
        )

    def copy(self) -> Board:
        """An independent copy of this position and its history."""
        clone = Board.__new__(Board)
        clone.config = self.config
        clone.size = self.size
        clone._rule_code = self._rule_code
        clone._win_length = self._win_length
        clone._cell_count = self._cell_count
        clone.cells = self.cells.copy()
        clone._empty = self._empty.copy()
        clone.moves = list(self.moves)
        clone.winner = self.winner
        clone.forbidden_loss = self.forbidden_loss
        clone._renju = self._renju
        clone._forbidden_codes = self._forbidden_codes
        return clone

    def transformed(self, symmetry: int) -> Board:
        """The same game with every move mapped by one of the 8 board symmetries."""
        moves = [transform_action(action, self.size, symmetry) for action in self.moves]
        return Board.from_moves(moves, self.config)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.config == other.config
            and self.moves == other.moves
            and self.winner == other.winner
            and np.array_equal(self.cells, other.cells)
        )

    def __repr__(self) -> str:
        config = self.config
        return (
            f"Board(size={config.board_size}, win_length={config.win_length}, "
            f"rule={config.rule.value!r}, moves={self.moves})"
        )
