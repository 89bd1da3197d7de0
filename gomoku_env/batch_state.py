"""The state of a batch of single-agent games and the per-game helpers of its kernels.

State is a struct of arrays over ``n`` games (:class:`GameBatch`): flat cells, the
learner's observation planes, move counts, last moves, learner colours, one splitmix64
random state per game, each game's empty cells as a swap-remove list so that a random
move costs O(1), and (renju) black's forbidden points while black is to move. Each game
draws only from its own generator, so a game's course does not depend on the others.
:class:`StepOutput` holds what a step reports per game. The stepping kernels are in
:mod:`gomoku_env.batch_kernels`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from gomoku_env.config import GameConfig
from gomoku_env.kernels import BLACK, EMPTY, WHITE
from gomoku_env.legal import is_legal_given
from gomoku_env.openings import centre_area
from gomoku_env.planes import PLANE_COUNT, write_observer

ILLEGAL_LOSE = 0
ILLEGAL_RANDOM = 1

PLAY_AS_RANDOM = 0  # otherwise the colour code, BLACK or WHITE

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


class GameBatch(NamedTuple):
    """The arrays of ``n`` games: ``cells`` is flat (n * cells), game after game;
    ``planes`` is (n, cells, PLANE_COUNT) or (n, PLANE_COUNT, cells) and
    ``flat_planes`` the same memory flat, written with the stride
    (``cell_step``, ``channel_step``) of :mod:`gomoku_env.planes` (a tuple field
    would not pass into a ``prange`` loop); ``forbidden`` (n, cells) holds black's
    forbidden points while black is to move (renju), ``forbidden_count`` their number;
    every game starts with the ``fixed_stones`` first points of ``opening_points``
    (the fixed opening), then ``random_stones`` stones on random legal points of the
    rest (the centre area), and is truncated when it reaches ``max_moves`` stones.
    Each game's ``empty_cells`` list ends with its stones in reverse move order (a
    placed stone swaps into the slot after the empty ones), so a batch keeps every
    game's moves without an array of its own: :func:`moves_of`."""

    cells: np.ndarray
    planes: np.ndarray
    flat_planes: np.ndarray
    cell_step: int
    channel_step: int
    move_count: np.ndarray
    last_move: np.ndarray
    learner_color: np.ndarray
    rng_state: np.ndarray
    empty_cells: np.ndarray
    empty_index: np.ndarray
    forbidden: np.ndarray
    forbidden_count: np.ndarray
    opening_points: np.ndarray
    fixed_stones: int
    random_stones: int
    size: int
    win_length: int
    rule_code: int
    play_as: int
    max_moves: int


OUTCOME = 0
"""Rows of :attr:`StepOutput.record`, all 0 for a game that goes on after a legal
action: the game's :func:`gomoku_env.outcome.outcome_index` this step, ..."""
ILLEGAL_CODE = 1
"""... the :func:`gomoku_env.legal.illegal_code` of an illegal learner action, and
for a game that ended: ..."""
FINAL_MOVES = 2
"""... its stone count ..."""
LINE_KEY = 3
"""... and its winning line's :func:`gomoku_env.outcome.line_key` (``NO_LINE``: none)."""
RECORD_WIDTH = 4
START_FAILED = -1
"""The ``OUTCOME`` of a game whose start could not give a game to play
(:mod:`gomoku_env.game_start`): the env raises a ValueError."""
START_DRAWS = 1000
"""Starts drawn before the options are judged unable to give a game to play."""


class StepOutput(NamedTuple):
    """Per-game results of one step: written by the kernels, read by the env.

    Few arrays on purpose: every array of this tuple and of :class:`GameBatch` costs
    reference counting at each inlined helper that takes them, so the per-game
    integers of a step share one (:data:`RECORD_WIDTH`, n) ``record``, a row each (six separate
    arrays cost 18% of a 1024-game step). ``final_planes`` holds the last planes of
    the games that ended.
    """

    rewards: np.ndarray
    needs_opponent: np.ndarray
    record: np.ndarray
    final_planes: np.ndarray


@njit(cache=True, nogil=True, inline="always")
def clear_record(out: StepOutput, game: int) -> None:
    """Zero ``game``'s column of the step's record: it goes on, its action legal."""
    for row in range(RECORD_WIDTH):
        out.record[game, row] = 0


@njit(cache=True, nogil=True, inline="always")
def cell_count(batch: GameBatch) -> int:
    """Points on one game's board."""
    return batch.empty_cells.shape[1]


@njit(cache=True, nogil=True, inline="always")
def next_random(rng_state: np.ndarray, game: int) -> np.uint64:
    """The next splitmix64 number of ``game``'s own generator."""
    z = rng_state[game] + _GOLDEN
    rng_state[game] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def planes_stride(batch: GameBatch) -> tuple[int, int]:
    """The batch's planes layout, as the planes writer takes it."""
    return (batch.cell_step, batch.channel_step)


@njit(cache=True, nogil=True, inline="always")
def planes_base(batch: GameBatch, game: int) -> int:
    """Where ``game``'s planes start in ``flat_planes``."""
    return game * cell_count(batch) * PLANE_COUNT


@njit(cache=True, nogil=True, inline="always")
def random_empty_cell(batch: GameBatch, game: int) -> int:
    """A uniformly drawn empty cell of ``game`` (which must not be full): the high 32
    bits of a random number scaled to the count, which spares a 64-bit division."""
    empties = np.uint64(cell_count(batch) - batch.move_count[game])
    high = next_random(batch.rng_state, game) >> np.uint64(32)
    return batch.empty_cells[game, (high * empties) >> np.uint64(32)]


@njit(cache=True, nogil=True)
def random_legal_cell(batch: GameBatch, game: int) -> int:
    """A uniformly drawn legal point of ``game`` (renju, with forbidden points: which
    must leave one); a scan of the empty list, each point judged against the kept
    forbidden points by :func:`gomoku_env.legal.is_legal_given`."""
    empties = cell_count(batch) - batch.move_count[game]
    legal = np.uint64(empties - batch.forbidden_count[game])
    high = next_random(batch.rng_state, game) >> np.uint64(32)
    skip = (high * legal) >> np.uint64(32)
    base = game * cell_count(batch)
    for slot in range(empties):
        cell = batch.empty_cells[game, slot]
        if is_legal_given(batch.cells[base + cell], batch.forbidden[game, cell]):
            if skip == 0:
                return cell
            skip -= np.uint64(1)
    return -1


@njit(cache=True, nogil=True, inline="always")
def random_move(batch: GameBatch, game: int) -> int:
    """A uniformly drawn legal point of ``game`` for the side to move."""
    if batch.forbidden_count[game] == 0:
        return random_empty_cell(batch, game)
    return random_legal_cell(batch, game)


@njit(cache=True, nogil=True, inline="always")
def start_stones(batch: GameBatch) -> int:
    """The stones of a game's start: the fixed opening and the random ones."""
    return batch.fixed_stones + batch.random_stones


def moves_of(batch: GameBatch, game: int) -> list[int]:
    """``game``'s moves in the order they were played (see :class:`GameBatch`)."""
    count = cell_count(batch)
    played = batch.empty_cells[game, count - batch.move_count[game] :]
    return [int(cell) for cell in played[::-1]]


@njit(cache=True, nogil=True, inline="always")
def remove_empty(batch: GameBatch, game: int, cell: int) -> None:
    """Take ``cell`` out of the empty list (the last empty cell fills its slot)."""
    last = cell_count(batch) - batch.move_count[game] - 1
    slot = batch.empty_index[game, cell]
    moved = batch.empty_cells[game, last]
    batch.empty_cells[game, slot] = moved
    batch.empty_index[game, moved] = slot
    batch.empty_cells[game, last] = cell
    batch.empty_index[game, cell] = last


@njit(cache=True, nogil=True, inline="always")
def reset_game(batch: GameBatch, game: int) -> None:
    """Empty ``game``'s board and draw or set the learner's colour."""
    count = cell_count(batch)
    batch.planes[game] = 0
    batch.move_count[game] = 0
    batch.last_move[game] = -1
    batch.forbidden_count[game] = 0
    for cell in range(count):
        batch.cells[game * count + cell] = EMPTY
        batch.empty_cells[game, cell] = cell
        batch.empty_index[game, cell] = cell
        batch.forbidden[game, cell] = 0
    color = batch.play_as
    if color == 0:
        color = BLACK if next_random(batch.rng_state, game) >> np.uint64(63) else WHITE
    batch.learner_color[game] = color
    if color == BLACK:
        base = planes_base(batch, game)
        write_observer(batch.flat_planes, base, planes_stride(batch), count, True)


def allocate_batch(
    n: int,
    config: GameConfig,
    channels_first: bool,
    random_stones: int,
    play_as: int,
    max_moves: int | None,
    opening: Sequence[int] = (),
) -> GameBatch:
    """The zeroed arrays of ``n`` games of ``config`` (planes channels first or last),
    which :func:`gomoku_env.batch_kernels.reset_games` starts with the fixed
    ``opening`` (validated actions) and ``random_stones`` random ones."""
    cells = config.cells
    layout = (n, PLANE_COUNT, cells) if channels_first else (n, cells, PLANE_COUNT)
    planes = np.zeros(layout, dtype=np.int8)
    return GameBatch(
        cells=np.zeros(n * cells, dtype=np.int8),
        planes=planes,
        flat_planes=planes.reshape(-1),
        cell_step=1 if channels_first else PLANE_COUNT,
        channel_step=cells if channels_first else 1,
        move_count=np.zeros(n, dtype=np.int64),
        last_move=np.full(n, -1, dtype=np.int64),
        learner_color=np.zeros(n, dtype=np.int8),
        rng_state=np.zeros(n, dtype=np.uint64),
        empty_cells=np.zeros((n, cells), dtype=np.int16),
        empty_index=np.zeros((n, cells), dtype=np.int16),
        forbidden=np.zeros((n, cells), dtype=np.int8),
        forbidden_count=np.zeros(n, dtype=np.int64),
        opening_points=np.concatenate(
            [np.asarray(opening, dtype=np.int64), centre_area(config.board_size)]
        ).astype(np.int64),
        fixed_stones=len(opening),
        random_stones=random_stones,
        size=config.board_size,
        win_length=config.win_length,
        rule_code=config.rule.code,
        play_as=play_as,
        max_moves=cells if max_moves is None else max_moves,
    )


def allocate_output(batch: GameBatch) -> StepOutput:
    """The per-game result arrays of a step of ``batch``."""
    n = batch.move_count.size
    return StepOutput(
        rewards=np.zeros(n, dtype=np.float32),
        needs_opponent=np.zeros(n, dtype=np.bool_),
        record=np.zeros((n, RECORD_WIDTH), dtype=np.int64),
        final_planes=np.zeros_like(batch.planes),
    )
