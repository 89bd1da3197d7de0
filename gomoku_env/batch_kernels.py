"""Compiled kernels that step many single-agent games at once.

State is a struct of arrays over ``n`` games (see :class:`GameBatch`): flat cells, the
learner's observation planes, move counts, last moves, learner colours, one splitmix64
random state per game, each game's empty cells as a swap-remove list so that a random
move costs O(1), and (renju) black's forbidden points while black is to move. Each game
draws only from its own generator, so a game's course does not depend on the others.
One call of :func:`step_games` plays the learner's moves, the random opponent's
replies, and resets finished games, so a vector env step costs one trip into compiled
code. The cells of all games lie in one flat array, game after game, so that stones
are judged by the rules' own :func:`gomoku_env.kernels.judge_stone` at an offset,
forbidden points found by :func:`gomoku_env.renju.forbidden_codes` on a game's slice,
and the planes written by the one writer of :mod:`gomoku_env.planes`. A game ends as
the Gymnasium env's does: a five (``WON``), a full board (``FULL``), or under renju no
point left to black (``NO_LEGAL_MOVE``, a draw); a forbidden point is never legal, for
the learner or the opponent. The per-game helpers are inlined into the kernels at
numba's IR level (``inline="always"``): a call that passes the batch's arrays costs
reference counting, which made up a third of a step.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from gomoku_env.kernels import BLACK, EMPTY, RENJU, WHITE, judge_stone
from gomoku_env.planes import (
    PLANE_COUNT,
    write_forbidden,
    write_move,
    write_observer,
)
from gomoku_env.renju import ALLOWED, forbidden_codes

ONGOING = 0
WON = 1
FULL = 2
NO_LEGAL_MOVE = 3

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
    would not pass into a ``prange`` loop); ``forbidden`` (n, cells) holds black's forbidden
    points while black is to move (renju), ``forbidden_count`` their number; every game
    starts with ``opening_stones`` stones on random legal points of ``opening_area``."""

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
    opening_area: np.ndarray
    opening_stones: int
    size: int
    win_length: int
    rule_code: int
    play_as: int


class StepOutput(NamedTuple):
    """Per-game results of one step: written by the kernels, read by the env."""

    rewards: np.ndarray
    terminated: np.ndarray
    illegal: np.ndarray
    needs_opponent: np.ndarray
    final_planes: np.ndarray


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
    """A uniformly drawn empty point of ``game`` that is not forbidden (renju, with
    forbidden points: which must leave one); a scan of the empty list."""
    empties = cell_count(batch) - batch.move_count[game]
    legal = np.uint64(empties - batch.forbidden_count[game])
    high = next_random(batch.rng_state, game) >> np.uint64(32)
    skip = (high * legal) >> np.uint64(32)
    for slot in range(empties):
        cell = batch.empty_cells[game, slot]
        if batch.forbidden[game, cell] == 0:
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


@njit(cache=True, nogil=True)
def update_forbidden(batch: GameBatch, game: int, ongoing: bool) -> int:
    """Renju: black's forbidden points of ``game`` after a move, into ``forbidden``
    and (for a black learner) the planes; NO_LEGAL_MOVE if they leave black no point,
    else ONGOING. Cleared while white is to move and once the game is over."""
    count = cell_count(batch)
    black_to_move = batch.move_count[game] % 2 == 0
    batch.forbidden_count[game] = 0
    if ongoing and black_to_move:
        base = game * count
        codes = forbidden_codes(batch.cells[base : base + count], batch.size)
        for cell in range(count):
            banned = codes[cell] != ALLOWED
            batch.forbidden[game, cell] = banned
            batch.forbidden_count[game] += banned
    else:
        batch.forbidden[game] = 0
    if batch.learner_color[game] == BLACK:
        base = planes_base(batch, game)
        write_forbidden(
            batch.flat_planes, base, planes_stride(batch), batch.forbidden[game]
        )
    empties = count - batch.move_count[game]
    if ongoing and batch.forbidden_count[game] == empties:
        return NO_LEGAL_MOVE
    return ONGOING


@njit(cache=True, nogil=True, inline="always")
def place(batch: GameBatch, game: int, action: int) -> int:
    """Play the side to move's (legal) stone on ``action``: ONGOING, WON, FULL or
    NO_LEGAL_MOVE."""
    color = BLACK if batch.move_count[game] % 2 == 0 else WHITE
    remove_empty(batch, game, action)
    base = game * cell_count(batch)
    batch.cells[base + action] = color
    won = judge_stone(
        batch.cells, base, batch.size, batch.win_length, batch.rule_code, action, color
    )
    own = color == batch.learner_color[game]
    write_move(
        batch.flat_planes,
        planes_base(batch, game),
        planes_stride(batch),
        action,
        batch.last_move[game],
        own,
    )
    batch.last_move[game] = action
    batch.move_count[game] += 1
    result = ONGOING
    if won >= 0:
        result = WON
    elif batch.move_count[game] == cell_count(batch):
        result = FULL
    if batch.rule_code == RENJU:
        blocked = update_forbidden(batch, game, result == ONGOING)
        if result == ONGOING:
            result = blocked
    return result


@njit(cache=True, nogil=True)
def random_opening_point(batch: GameBatch, game: int) -> int:
    """A uniformly drawn legal point of ``opening_area`` (drawn again until legal: the
    area holds at most half its points in stones)."""
    area = batch.opening_area
    base = game * cell_count(batch)
    while True:
        high = next_random(batch.rng_state, game) >> np.uint64(32)
        cell = area[(high * np.uint64(area.size)) >> np.uint64(32)]
        if batch.cells[base + cell] == EMPTY and batch.forbidden[game, cell] == 0:
            return cell


@njit(cache=True, nogil=True)
def play_opening(batch: GameBatch, game: int) -> None:
    """Reset ``game`` and play its random opening stones; again if one ends it."""
    while True:
        reset_game(batch, game)
        result = ONGOING
        for _ in range(batch.opening_stones):
            result = place(batch, game, random_opening_point(batch, game))
            if result != ONGOING:
                break
        if result == ONGOING:
            return


@njit(cache=True, nogil=True, inline="always")
def opponent_to_move(batch: GameBatch, game: int) -> bool:
    """Whether the side to move in ``game`` is the opponent's."""
    mover = BLACK if batch.move_count[game] % 2 == 0 else WHITE
    return mover != batch.learner_color[game]


@njit(cache=True, nogil=True, inline="always")
def start_game(
    batch: GameBatch, out: StepOutput, game: int, random_opponent: bool
) -> None:
    """Reset ``game`` (with its opening); where the opponent is to move, play (or
    flag) its first move."""
    out.needs_opponent[game] = False
    if batch.opening_stones == 0:
        reset_game(batch, game)
    else:
        play_opening(batch, game)
    if opponent_to_move(batch, game):
        if random_opponent:
            place(batch, game, random_move(batch, game))
        else:
            out.needs_opponent[game] = True


@njit(cache=True, nogil=True, inline="always")
def finish_game(
    batch: GameBatch, out: StepOutput, game: int, random_opponent: bool
) -> None:
    """Record the final planes, reset ``game`` and start it if the opponent opens."""
    out.terminated[game] = True
    out.final_planes[game] = batch.planes[game]
    start_game(batch, out, game, random_opponent)


@njit(cache=True, nogil=True, inline="always")
def opponent_reply(batch: GameBatch, out: StepOutput, game: int, action: int) -> bool:
    """Play the opponent's ``action``; finish the game if it ends. True if it ended."""
    result = place(batch, game, action)
    if result == ONGOING:
        return False
    out.rewards[game] = -1.0 if result == WON else 0.0
    return True


@njit(cache=True, nogil=True, inline="always")
def step_game(
    batch: GameBatch,
    out: StepOutput,
    game: int,
    action: int,
    illegal_policy: int,
    random_opponent: bool,
) -> None:
    """Play one game's learner ``action`` and (``random_opponent``) a random reply."""
    out.rewards[game] = 0.0
    out.terminated[game] = False
    out.needs_opponent[game] = False
    # The legality test is written here rather than in an inlined helper: the
    # helper's short-circuit return cost 12-15% of a 1024-game step (bench_vector).
    count = cell_count(batch)
    legal = (
        0 <= action < count
        and batch.cells[game * count + action] == EMPTY
        and batch.forbidden[game, action] == 0
    )
    out.illegal[game] = not legal
    if not legal and illegal_policy == ILLEGAL_LOSE:
        out.rewards[game] = -1.0
        finish_game(batch, out, game, random_opponent)
        return
    if not legal:
        action = random_move(batch, game)
    result = place(batch, game, action)
    if result != ONGOING:
        out.rewards[game] = 1.0 if result == WON else 0.0
        finish_game(batch, out, game, random_opponent)
    elif not random_opponent:
        out.needs_opponent[game] = True
    elif opponent_reply(batch, out, game, random_move(batch, game)):
        finish_game(batch, out, game, random_opponent)


@njit(cache=True, nogil=True)
def step_games(
    batch: GameBatch,
    out: StepOutput,
    actions: np.ndarray,
    illegal_policy: int,
    random_opponent: bool,
) -> None:
    """:func:`step_game` for every game.

    Without ``random_opponent`` the games awaiting a reply are flagged in
    ``out.needs_opponent`` for :func:`apply_opponent_moves`.
    """
    for game in range(actions.size):
        step_game(batch, out, game, actions[game], illegal_policy, random_opponent)


@njit(cache=True, nogil=True)
def step_game_called(
    batch: GameBatch,
    out: StepOutput,
    game: int,
    action: int,
    illegal_policy: int,
    random_opponent: bool,
) -> None:
    """:func:`step_game` behind a real call: inlined into a ``prange`` loop, its
    per-game counters would be mistaken for reductions across the games."""
    step_game(batch, out, game, action, illegal_policy, random_opponent)


@njit(cache=True, nogil=True, parallel=True)
def step_games_parallel(
    batch: GameBatch,
    out: StepOutput,
    actions: np.ndarray,
    illegal_policy: int,
    random_opponent: bool,
) -> None:
    """:func:`step_games` with the games shared among numba's threads.

    Games touch only their own rows and generators, so the results are those of
    :func:`step_games` whatever the thread count.
    """
    for game in prange(actions.size):
        step_game_called(
            batch, out, game, actions[game], illegal_policy, random_opponent
        )


@njit(cache=True, nogil=True)
def apply_opponent_moves(
    batch: GameBatch, out: StepOutput, games: np.ndarray, actions: np.ndarray
) -> None:
    """Play the opponent's ``actions`` in ``games`` (legality checked by the caller)."""
    for index in range(games.size):
        game = games[index]
        out.needs_opponent[game] = False
        if opponent_reply(batch, out, game, actions[index]):
            finish_game(batch, out, game, False)


@njit(cache=True, nogil=True)
def reset_games(batch: GameBatch, out: StepOutput, random_opponent: bool) -> None:
    """:func:`start_game` for every game."""
    for game in range(batch.move_count.size):
        start_game(batch, out, game, random_opponent)
