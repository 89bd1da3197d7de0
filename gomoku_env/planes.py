"""The observation planes: their channels, and the one writer every producer calls.

Every observation of the envs, every leaf a search hands to an evaluator, every batch
the vector env returns and every distillation sample uses these channels (from the
observing player's point of view, who is the side to move):

=====  ============================================================
index  meaning
=====  ============================================================
0      the observer's stones
1      the opponent's stones
2      the last move (one cell set, all zero before the first move)
3      the observer's colour: all ones for black, all zeros for white
4      points forbidden to the observer, who is to move: black's renju
       forbidden points while black is to move; all zero otherwise
=====  ============================================================

The writer is a handful of compiled kernels on a flat int8 array, addressed by a
``base`` offset and a ``stride`` = (step between cells, step between channels), so
that one observer's planes may sit anywhere in a bigger array, channels last
(``(PLANE_COUNT, 1)``) or first (``(1, cells)``): :func:`write_move` records one
move's change (:func:`write_stone`, :func:`write_last_move`), :func:`write_observer`
and :func:`write_forbidden` the two whole-board channels. :func:`write_planes` builds
a position from its cells with the same kernels (search leaves),
:class:`ObservationPlanes` keeps both players' planes (the AEC and Gymnasium envs'
game state, whose step :func:`gomoku_env.game_step.play_move` writes them; self-play
and distillation, move by move with :meth:`ObservationPlanes.place`), and the vector
env's step writes the learner's planes of every game of a batch with them.
:func:`read_cells` takes the stones back out.

Reading planes back: :func:`board_from_observation` rebuilds a :class:`Board` from what
an agent sees (search agents need a board to search from). The planes hold the stones
and the last move but not the order of the earlier moves, which no rule here depends
on, so the rebuilt history interleaves the stones in index order and ends with the last
move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.kernels import BLACK, EMPTY, WHITE, other_color

OWN_STONES = 0
OPPONENT_STONES = 1
LAST_MOVE = 2
OBSERVER_IS_BLACK = 3
FORBIDDEN = 4
PLANE_COUNT = 5

CHANNELS_LAST = (PLANE_COUNT, 1)
"""The stride of one observer's channels-last planes (cells, PLANE_COUNT)."""


@njit(cache=True, nogil=True, inline="always")
def write_stone(
    planes: np.ndarray, base: int, stride: tuple[int, int], action: int, own: bool
) -> None:
    """Record a stone on ``action``: the observer's if ``own``, else the opponent's."""
    cell_step, channel_step = stride
    stone = OWN_STONES if own else OPPONENT_STONES
    planes[base + action * cell_step + stone * channel_step] = 1


@njit(cache=True, nogil=True, inline="always")
def write_last_move(
    planes: np.ndarray,
    base: int,
    stride: tuple[int, int],
    action: int,
    previous_move: int,
) -> None:
    """Move the last-move marker from ``previous_move`` (-1: none) to ``action``."""
    cell_step, channel_step = stride
    if previous_move >= 0:
        planes[base + previous_move * cell_step + LAST_MOVE * channel_step] = 0
    planes[base + action * cell_step + LAST_MOVE * channel_step] = 1


@njit(cache=True, nogil=True, inline="always")
def write_move(
    planes: np.ndarray,
    base: int,
    stride: tuple[int, int],
    action: int,
    previous_move: int,
    own: bool,
) -> None:
    """One move's change: its stone (the observer's if ``own``), and the last-move
    marker taken off ``previous_move`` (-1: none) and put on ``action``."""
    write_stone(planes, base, stride, action, own)
    write_last_move(planes, base, stride, action, previous_move)


@njit(cache=True, nogil=True, inline="always")
def write_observer(
    planes: np.ndarray, base: int, stride: tuple[int, int], cells: int, black: bool
) -> None:
    """Fill the observer's colour channel: ones for black, zeros for white."""
    cell_step, channel_step = stride
    value = 1 if black else 0
    for cell in range(cells):
        planes[base + cell * cell_step + OBSERVER_IS_BLACK * channel_step] = value


@njit(cache=True, nogil=True, inline="always")
def write_forbidden(
    planes: np.ndarray, base: int, stride: tuple[int, int], forbidden: np.ndarray
) -> None:
    """Copy the flat int8 ``forbidden`` mask (zeros clear it) into its channel."""
    cell_step, channel_step = stride
    for cell in range(forbidden.size):
        planes[base + cell * cell_step + FORBIDDEN * channel_step] = forbidden[cell]


@njit(cache=True, nogil=True)
def write_both_views(
    planes: np.ndarray, action: int, color: int, previous_move: int
) -> None:
    """:func:`write_move` of a ``color`` stone into the black (first) and white
    (second) observers' channels-last planes, stored one after the other."""
    view = planes.size // 2
    write_move(planes, 0, CHANNELS_LAST, action, previous_move, color == BLACK)
    write_move(planes, view, CHANNELS_LAST, action, previous_move, color == WHITE)


@njit(cache=True, nogil=True)
def write_planes(
    cells: np.ndarray,
    size: int,
    to_move: int,
    last_move: int,
    legal: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill ``out`` (H, W, PLANE_COUNT) int8 with the planes of ``cells`` seen by
    ``to_move``.

    ``last_move`` is -1 before the first move; ``legal`` is the side to move's legal
    mask, whose empty zeros (black's renju forbidden points) become FORBIDDEN.
    """
    planes = out.reshape(-1)
    planes[:] = 0
    count = cells.size
    write_observer(planes, 0, CHANNELS_LAST, count, to_move == BLACK)
    forbidden = np.zeros(count, dtype=np.int8)
    for action in range(count):
        if cells[action] != EMPTY:
            write_stone(planes, 0, CHANNELS_LAST, action, cells[action] == to_move)
        elif legal[action] == 0:
            forbidden[action] = 1
    write_forbidden(planes, 0, CHANNELS_LAST, forbidden)
    if last_move >= 0:
        write_last_move(planes, 0, CHANNELS_LAST, last_move, -1)


@njit(cache=True, nogil=True)
def read_cells(planes: np.ndarray, cells: np.ndarray) -> int:
    """Fill flat ``cells`` with the stones of ``planes`` (H, W, PLANE_COUNT); return
    the observer's colour, who is the side to move."""
    size = planes.shape[0]
    mover = BLACK if planes[0, 0, OBSERVER_IS_BLACK] else WHITE
    opponent = other_color(mover)
    for action in range(cells.size):
        row, col = action // size, action % size
        cells[action] = EMPTY
        if planes[row, col, OWN_STONES]:
            cells[action] = mover
        elif planes[row, col, OPPONENT_STONES]:
            cells[action] = opponent
    return mover


class ObservationPlanes:
    """Channels-last int8 planes for the black (view 0) and white (view 1) observers,
    kept up to date move by move.

    Rebuilding the planes on every ``observe`` would dominate an env step, and
    PettingZoo's wrappers observe more than once per step; instead each move writes
    the few entries it changes (:func:`write_both_views`, or the env's step
    :func:`gomoku_env.game_step.play_move`, which also sets black's forbidden channel
    through ``flat``) and :meth:`view` copies; white is never forbidden a point.
    """

    def __init__(self, board_size: int) -> None:
        self.board_size = board_size
        cells = board_size * board_size
        self.planes = np.zeros((2, board_size, board_size, PLANE_COUNT), dtype=np.int8)
        self._bind_views()
        write_observer(self.flat, 0, CHANNELS_LAST, cells, True)

    def _bind_views(self) -> None:
        """The flat array the kernels write and the per-colour views ``view`` copies."""
        self.flat = self.planes.reshape(-1)
        """Both views, flat: black's from 0, white's from ``cells * PLANE_COUNT``."""
        self._views = {BLACK: self.planes[0], WHITE: self.planes[1]}

    def __getstate__(self) -> dict[str, object]:
        """Only the planes: copied views would point at arrays of their own."""
        return {"board_size": self.board_size, "planes": self.planes}

    def __setstate__(self, state: dict[str, object]) -> None:
        """Restore the planes (from pickle or ``copy.deepcopy``), rebuilding views."""
        self.__dict__.update(state)
        self._bind_views()

    @classmethod
    def from_board(cls, board: Board) -> ObservationPlanes:
        """Planes for the position on ``board``, built by :func:`write_planes`."""
        planes = cls(board.size)
        last = -1 if board.last_move is None else board.last_move
        forbidden = board.forbidden_mask()
        for view, color, banned in (
            (0, BLACK, forbidden),
            (1, WHITE, np.zeros_like(forbidden)),
        ):
            write_planes(
                board.cells, board.size, color, last, 1 - banned, planes.planes[view]
            )
        return planes

    def place(self, action: int, color: int, previous_move: int | None) -> None:
        """Record a ``color`` stone on ``action``; ``previous_move`` loses its marker."""
        previous = -1 if previous_move is None else previous_move
        write_both_views(self.flat, action, color, previous)

    def view(self, color: int) -> np.ndarray:
        """A copy of the planes as seen by the ``color`` player."""
        return self._views[color].copy()


def board_from_stones(
    black: np.ndarray, white: np.ndarray, last_move: int | None, config: GameConfig
) -> Board:
    """A board with the given black and white stone actions and ``last_move`` played last.

    Raises:
        ValueError: the stone counts cannot arise in a game (black has 0 or 1 more), a
            point holds both colours, or ``last_move`` is not a stone of the side that
            moved last.
    """
    black = [int(a) for a in np.sort(np.asarray(black, dtype=np.int64))]
    white = [int(a) for a in np.sort(np.asarray(white, dtype=np.int64))]
    if len(black) - len(white) not in (0, 1):
        raise ValueError(
            f"impossible stone counts: {len(black)} black and {len(white)} white "
            "(black must have as many stones as white or one more)"
        )
    if set(black) & set(white):
        raise ValueError(f"points hold both colours: {sorted(set(black) & set(white))}")
    moved_last = black if len(black) > len(white) else white
    if last_move is not None:
        if last_move not in moved_last:
            raise ValueError(
                f"last move {last_move} is not a stone of the side that moved last"
            )
        moved_last.remove(last_move)
        moved_last.append(last_move)
    moves = [None] * (len(black) + len(white))
    moves[0::2] = black
    moves[1::2] = white
    return Board.with_stones(moves, config)


def board_from_observation(
    observation: dict[str, np.ndarray], config: GameConfig
) -> Board:
    """The position behind a PettingZoo observation dict of the Gomoku env."""
    planes = np.asarray(observation["observation"])
    size = config.board_size
    if planes.shape[:2] != (size, size):
        raise ValueError(
            f"observation planes of shape {planes.shape} do not fit a {size}x{size} "
            "board: give the agent the env's game, e.g. "
            f"GameConfig(board_size={planes.shape[0]}) (from gomoku_env import "
            "GameConfig)"
        )
    cells = np.empty(size * size, dtype=np.int8)
    read_cells(np.ascontiguousarray(planes, dtype=np.int8), cells)
    last = np.flatnonzero(planes[:, :, LAST_MOVE])
    return board_from_stones(
        np.flatnonzero(cells == BLACK),
        np.flatnonzero(cells == WHITE),
        int(last[0]) if last.size else None,
        config,
    )
