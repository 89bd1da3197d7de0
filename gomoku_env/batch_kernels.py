"""Compiled kernels that step many single-agent games at once.

One call of :func:`step_games` plays the learner's moves, the random opponent's
replies, and resets finished games, so a vector env step costs one trip into compiled
code. The games' state is a :class:`gomoku_env.batch_state.GameBatch`. The cells of all
games lie in one flat array, game after game, and each game moves by the one step of
every env, :func:`gomoku_env.game_step.play_move`, at its offset (a learner action
is judged legal by :func:`gomoku_env.legal.is_legal_point` first). A game ends as the
Gymnasium env's does, with an end code of :mod:`gomoku_env.outcome`: a five (``WON``),
a full board (``FULL``), under renju no point left to black (``NO_LEGAL_MOVE``, a
draw), a lost illegal action (``ILLEGAL``) or the move limit (``MOVE_LIMIT``,
truncated); a forbidden point is never legal, for the learner or the opponent. The
per-game helpers are inlined into the kernels at numba's IR level
(``inline="always"``): a call that passes the batch's arrays costs reference counting,
which made up a third of a step.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gomoku_env.batch_state import (
    FINAL_MOVES,
    ILLEGAL_CODE,
    ILLEGAL_LOSE,
    LINE_KEY,
    OUTCOME,
    START_DRAWS,
    START_FAILED,
    GameBatch,
    StepOutput,
    cell_count,
    clear_record,
    next_random,
    planes_base,
    planes_stride,
    random_move,
    remove_empty,
    reset_game,
    start_stones,
)
from gomoku_env.game_step import play_move
from gomoku_env.kernels import (
    BLACK,
    WHITE,
    line_extent,
    winning_direction,
)
from gomoku_env.legal import illegal_code, is_legal_given, is_legal_point
from gomoku_env.outcome import (
    ILLEGAL,
    NO_LINE,
    ONGOING,
    WON,
    line_key,
    outcome_index,
)


@njit(cache=True, nogil=True, inline="always")
def place(batch: GameBatch, game: int, action: int) -> int:
    """Play the side to move's (legal) stone on ``action`` with the one step,
    :func:`gomoku_env.game_step.play_move`, the learner being the observer: ONGOING,
    WON, FULL, NO_LEGAL_MOVE or MOVE_LIMIT."""
    remove_empty(batch, game, action)
    count = cell_count(batch)
    code, banned_count = play_move(
        batch.cells,
        game * count,
        batch.size,
        batch.win_length,
        batch.rule_code,
        batch.max_moves,
        action,
        batch.move_count[game],
        batch.last_move[game],
        batch.flat_planes,
        planes_base(batch, game),
        planes_stride(batch),
        0,
        (batch.learner_color[game],),
        batch.forbidden,
        game,
        True,
    )
    batch.last_move[game] = action
    batch.move_count[game] += 1
    batch.forbidden_count[game] = banned_count
    return code


@njit(cache=True, nogil=True)
def random_opening_point(batch: GameBatch, game: int) -> int:
    """A uniformly drawn legal point of the centre area (``opening_points`` after the
    fixed opening), drawn again until legal; -1 if the area has no legal point left
    (crowded by the fixed opening, or by black's forbidden points)."""
    area = batch.opening_points[batch.fixed_stones :]
    base = game * cell_count(batch)
    free = 0
    for cell in area:
        free += is_legal_given(batch.cells[base + cell], batch.forbidden[game, cell])
    if free == 0:
        return -1
    while True:
        high = next_random(batch.rng_state, game) >> np.uint64(32)
        cell = area[(high * np.uint64(area.size)) >> np.uint64(32)]
        if is_legal_given(batch.cells[base + cell], batch.forbidden[game, cell]):
            return cell


@njit(cache=True, nogil=True)
def play_opening(batch: GameBatch, game: int) -> int:
    """Reset ``game`` and play its opening: the fixed stones, then the random ones.
    ONGOING; the result of the stone that ended the game; or ILLEGAL when the centre
    area had no legal point left for a random stone."""
    reset_game(batch, game)
    result = ONGOING
    for index in range(batch.fixed_stones):
        result = place(batch, game, batch.opening_points[index])
        if result != ONGOING:
            return result
    for _ in range(batch.random_stones):
        cell = random_opening_point(batch, game)
        if cell < 0:
            return ILLEGAL
        result = place(batch, game, cell)
        if result != ONGOING:
            return result
    return result


@njit(cache=True, nogil=True, inline="always")
def opponent_to_move(batch: GameBatch, game: int) -> bool:
    """Whether the side to move in ``game`` is the opponent's."""
    mover = BLACK if batch.move_count[game] % 2 == 0 else WHITE
    return mover != batch.learner_color[game]


@njit(cache=True, nogil=True, inline="always")
def start_game(
    batch: GameBatch, out: StepOutput, game: int, random_opponent: bool
) -> None:
    """Start ``game`` by the envs' one rule (:mod:`gomoku_env.game_start`): its
    opening, then, where the opponent is to move, the random opponent's first move
    (or a flag asking the env's opponent for it); drawn again while the start ends
    the game. After START_DRAWS such starts the game's record says START_FAILED."""
    out.needs_opponent[game] = False
    for _ in range(START_DRAWS):
        if start_stones(batch) == 0:
            reset_game(batch, game)
            result = ONGOING
        else:
            result = play_opening(batch, game)
        if result == ONGOING and opponent_to_move(batch, game):
            if random_opponent:
                result = place(batch, game, random_move(batch, game))
            else:
                out.needs_opponent[game] = True
        if result == ONGOING:
            return
    out.record[game, OUTCOME] = START_FAILED


@njit(cache=True, nogil=True)
def winning_line_key(
    cells: np.ndarray,
    base: int,
    size: int,
    win_length: int,
    rule_code: int,
    action: int,
) -> int:
    """The :func:`gomoku_env.outcome.line_key` of the line that the stone on
    ``action`` won with (the judge finds its direction again, once a game). A real
    call, not inlined: it runs once a won game, and inlined into every finish it
    cost 3-4% of a step."""
    board = cells[base : base + size * size]
    direction = winning_direction(board, size, win_length, rule_code, action)
    start, length = line_extent(board, size, action, direction)
    return line_key(size, start, direction, length)


@njit(cache=True, nogil=True, inline="always")
def finish_game(
    batch: GameBatch, out: StepOutput, game: int, random_opponent: bool, code: int
) -> None:
    """Record how ``game`` ended (its end ``code``, stones, winning line) and its final
    planes, reset it and start it if the opponent opens."""
    out.record[game, OUTCOME] = outcome_index(code, batch.move_count[game])
    out.record[game, FINAL_MOVES] = batch.move_count[game]
    out.record[game, LINE_KEY] = NO_LINE
    if code == WON:
        out.record[game, LINE_KEY] = winning_line_key(
            batch.cells,
            game * cell_count(batch),
            batch.size,
            batch.win_length,
            batch.rule_code,
            batch.last_move[game],
        )
    out.final_planes[game] = batch.planes[game]
    start_game(batch, out, game, random_opponent)


@njit(cache=True, nogil=True, inline="always")
def opponent_reply(batch: GameBatch, out: StepOutput, game: int, action: int) -> int:
    """Play the opponent's ``action``; its result, with the learner's reward if it
    ended the game."""
    result = place(batch, game, action)
    if result != ONGOING:
        out.rewards[game] = -1.0 if result == WON else 0.0
    return result


@njit(cache=True, nogil=True, inline="always")
def reports(out: StepOutput, game: int) -> tuple[int, int]:
    """Whether ``game`` ended this step and whether its learner action was illegal
    (1 or 0 each)."""
    return int(out.record[game, OUTCOME] != 0), int(out.record[game, ILLEGAL_CODE] != 0)


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
    clear_record(out, game)
    out.needs_opponent[game] = False
    count = cell_count(batch)
    base = game * count
    color = BLACK if batch.move_count[game] % 2 == 0 else WHITE
    legal = 0 <= action < count and is_legal_point(
        batch.cells, batch.size, batch.rule_code, action, color, base
    )
    if not legal:
        out.record[game, ILLEGAL_CODE] = illegal_code(
            batch.cells, base, batch.size, action
        )
    if not legal and illegal_policy == ILLEGAL_LOSE:
        out.rewards[game] = -1.0
        finish_game(batch, out, game, random_opponent, ILLEGAL)
        return
    if not legal:
        action = random_move(batch, game)
    result = place(batch, game, action)
    if result == ONGOING and random_opponent:
        result = opponent_reply(batch, out, game, random_move(batch, game))
    elif result != ONGOING:
        out.rewards[game] = 1.0 if result == WON else 0.0
    else:
        out.needs_opponent[game] = True
    if result != ONGOING:
        finish_game(batch, out, game, random_opponent, result)


@njit(cache=True, nogil=True)
def step_games(
    batch: GameBatch,
    out: StepOutput,
    actions: np.ndarray,
    illegal_policy: int,
    random_opponent: bool,
) -> tuple[int, int]:
    """:func:`step_game` for every game; the numbers of games that ended and of
    illegal learner actions, so that the env builds only the infos it needs.

    Without ``random_opponent`` the games awaiting a reply are flagged in
    ``out.needs_opponent`` for :func:`apply_opponent_moves`.
    """
    ended = illegal = 0
    for game in range(actions.size):
        step_game(batch, out, game, actions[game], illegal_policy, random_opponent)
        game_ended, game_illegal = reports(out, game)
        ended += game_ended
        illegal += game_illegal
    return ended, illegal


@njit(cache=True, nogil=True)
def step_game_called(
    batch: GameBatch,
    out: StepOutput,
    game: int,
    action: int,
    illegal_policy: int,
    random_opponent: bool,
) -> tuple[int, int]:
    """:func:`step_game` behind a real call (inlined into a ``prange`` loop, its
    per-game counters would be mistaken for reductions across the games), and
    its :func:`reports`."""
    step_game(batch, out, game, action, illegal_policy, random_opponent)
    return reports(out, game)


@njit(cache=True, nogil=True, parallel=True)
def step_games_parallel(
    batch: GameBatch,
    out: StepOutput,
    actions: np.ndarray,
    illegal_policy: int,
    random_opponent: bool,
) -> tuple[int, int]:
    """:func:`step_games` with the games shared among numba's threads.

    Games touch only their own rows and generators, so the results are those of
    :func:`step_games` whatever the thread count.
    """
    ended = illegal = 0
    for game in prange(actions.size):
        game_ended, game_illegal = step_game_called(
            batch, out, game, actions[game], illegal_policy, random_opponent
        )
        ended += game_ended
        illegal += game_illegal
    return ended, illegal


@njit(cache=True, nogil=True)
def apply_opponent_moves(
    batch: GameBatch, out: StepOutput, games: np.ndarray, actions: np.ndarray
) -> int:
    """Play the opponent's ``actions`` in ``games`` (legality checked by the caller);
    the number of games it ended. A first reply (right after the opening, before the
    learner's first move) that ends its game starts the game again instead: the
    learner never moved in it."""
    ended = 0
    for index in range(games.size):
        game = games[index]
        out.needs_opponent[game] = False
        if batch.move_count[game] == start_stones(batch):
            if place(batch, game, actions[index]) != ONGOING:
                start_game(batch, out, game, False)
            continue
        result = opponent_reply(batch, out, game, actions[index])
        if result != ONGOING:
            finish_game(batch, out, game, False, result)
            ended += 1
    return ended


@njit(cache=True, nogil=True)
def reset_games(batch: GameBatch, out: StepOutput, random_opponent: bool) -> None:
    """:func:`start_game` for every game."""
    for game in range(batch.move_count.size):
        clear_record(out, game)
        start_game(batch, out, game, random_opponent)
