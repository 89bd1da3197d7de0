"""How every env starts a game: the opening, then the opponent's first reply.

All three envs start a game by one rule, one compiled function,
:func:`gomoku_env.batch_kernels.start_game`: the fixed opening is played, then
``random_stones`` stones drawn near the centre, then, where the opening leaves the
opponent to move, the opponent's reply (the vector env's random opponent in compiled
code; any other opponent through :func:`play_replies`). A start that already ends the
game (a line in the random stones, or an opponent reply that wins or fills the board)
is drawn again, so an env never hands its learner a finished game and every game an
env reports is one its learner moved in. After
:data:`~gomoku_env.batch_state.START_DRAWS` starts that all ended the game, the options
cannot give a game to play, and a ValueError names them
(:func:`unplayable_start_text`).

The vector env runs the rule per game of its batch. The AEC and Gymnasium envs run it
on a one-game batch (:func:`start_game`) and then replay the start's moves on their
:class:`~gomoku_env.game_state.GameState` with the one step, as pgx runs one game as a
batch of one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from gomoku_env import batch_kernels
from gomoku_env.batch_state import (
    OUTCOME,
    START_DRAWS,
    START_FAILED,
    GameBatch,
    StepOutput,
    allocate_batch,
    allocate_output,
    moves_of,
)
from gomoku_env.config import GameConfig
from gomoku_env.game_state import GameState
from gomoku_env.kernels import BLACK


def start_game(
    game: GameState,
    rng: np.random.Generator,
    opening: Sequence[int] = (),
    random_stones: int = 0,
    opponent_reply: Callable[[], int] | None = None,
    learner_color: int = BLACK,
) -> None:
    """Start ``game`` by the one rule on a one-game batch seeded from ``rng``:
    ``opening`` (validated actions), ``random_stones`` random ones, and, where the
    side to move is not ``learner_color``, ``opponent_reply()``, the opponent's action
    in ``game`` (which shows the start so far); then ``game`` replays the moves.

    Raises:
        ValueError: no start gave a game to play (the message names the options).
    """
    key = (tuple(opening), random_stones)
    if key not in game.start_batches:
        batch = allocate_batch(
            1, game.config, False, random_stones, BLACK, game.max_moves, opening
        )
        game.start_batches[key] = (batch, allocate_output(batch))
    batch, out = game.start_batches[key]
    if batch.play_as != learner_color:
        batch = batch._replace(play_as=learner_color)
        game.start_batches[key] = (batch, out)
    batch.rng_state[0] = rng.bit_generator.random_raw()

    def replies(games: np.ndarray) -> np.ndarray:
        game.reset(moves_of(batch, 0))
        return np.array([opponent_reply()], dtype=np.int64)

    with_reply = opponent_reply is not None
    for _ in range(START_DRAWS):
        batch_kernels.reset_games(batch, out, False)
        check_starts(batch, out, game.config, with_reply)
        if with_reply:
            play_replies(batch, out, game.config, replies)
        game.reset(moves_of(batch, 0))
        # Only a reply on a point forbidden to black under forbidden="lose" ends the
        # game here: the batch, where such points are never moves, does not judge it.
        if not game.over:
            return
    raise ValueError(unplayable_start_text(game.config, batch, with_reply))


def play_replies(
    batch: GameBatch,
    out: StepOutput,
    config: GameConfig,
    replies: Callable[[np.ndarray], np.ndarray],
) -> int:
    """Play ``replies(games)``, the opponent's legal actions in the games that wait
    for one, until none waits; the number of games they ended. A first reply that
    ends its game starts that game again (which may wait for a reply again).

    Raises:
        ValueError: a game's starts could not give a game to play.
    """
    ended = 0
    for _ in range(START_DRAWS):
        games = np.flatnonzero(out.needs_opponent)
        if not games.size:
            return ended
        ended += batch_kernels.apply_opponent_moves(batch, out, games, replies(games))
        check_starts(batch, out, config, True)
    raise ValueError(unplayable_start_text(config, batch, True))


def check_starts(
    batch: GameBatch, out: StepOutput, config: GameConfig, with_reply: bool
) -> None:
    """ValueError naming the options if a game of ``batch`` could not start."""
    if (out.record[:, OUTCOME] == START_FAILED).any():
        raise ValueError(unplayable_start_text(config, batch, with_reply))


def unplayable_start_text(
    config: GameConfig, batch: GameBatch, with_reply: bool
) -> str:
    """The one-line error of a start that cannot give a game to play."""
    reply = " and the opponent's first reply" if with_reply else ""
    return (
        f"no game to play: {START_DRAWS} starts of {batch.fixed_stones} opening "
        f"stones, random_opening={batch.random_stones}{reply} all ended the game or "
        f"found no free point near the centre on a {config.board_size}x"
        f"{config.board_size} board (win_length={config.win_length}, rule="
        f"{config.rule.value!r}); lower random_opening"
    )
