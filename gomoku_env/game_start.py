"""How every env starts a game: the opening, then the opponent's first reply.

All three envs start a game by one rule. The fixed opening is played, then
``random_stones`` stones drawn near the centre (:meth:`GameState.play_random_opening`),
then, in the single-agent envs, the opponent's reply where the opening leaves it to
move. A start that already ends the game (a line in the random stones, or an opponent
reply that wins or fills the board) is drawn again, so an env never hands its learner a
finished game and every game an env reports is one its learner moved in. After
:data:`START_DRAWS` starts that all ended the game, the options cannot give a game to
play, and a ValueError names them.

:func:`start_game` is the rule for one game (the AEC and Gymnasium envs); the vector env
follows it per game in compiled code (:func:`gomoku_env.batch_kernels.start_game`), with
the same bound and the same message (:func:`unplayable_start_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from gomoku_env.config import GameConfig
from gomoku_env.game_state import GameState

START_DRAWS = 1000
"""Starts drawn before the options are judged unable to give a game to play."""


def start_game(
    game: GameState,
    rng: np.random.Generator,
    opening: Sequence[int] = (),
    random_stones: int = 0,
    opponent_reply: Callable[[], None] | None = None,
    learner_color: int | None = None,
) -> None:
    """Start ``game``: ``opening``, ``random_stones`` drawn from ``rng``, and, when the
    side to move is not ``learner_color``, ``opponent_reply()`` (which plays the
    opponent's move in ``game``); drawn again while the start ends the game.

    Raises:
        ValueError: :data:`START_DRAWS` starts all ended the game (the message names
            the options), or the random stones found no free point near the centre.
    """
    for _ in range(START_DRAWS):
        game.reset(opening)
        game.play_random_opening(random_stones, rng)
        to_move = game.board.to_move
        if not game.over and opponent_reply is not None and to_move != learner_color:
            opponent_reply()
        if not game.over:
            return
    raise ValueError(
        unplayable_start_text(
            game.config, len(opening), random_stones, opponent_reply is not None
        )
    )


def unplayable_start_text(
    config: GameConfig, opening_stones: int, random_stones: int, with_reply: bool
) -> str:
    """The one-line error of a start that cannot give a game to play."""
    reply = " and the opponent's first reply" if with_reply else ""
    return (
        f"no game to play: {START_DRAWS} starts of {opening_stones} opening stones, "
        f"random_opening={random_stones}{reply} all ended the game on a "
        f"{config.board_size}x{config.board_size} board (win_length="
        f"{config.win_length}, rule={config.rule.value!r}); lower random_opening"
    )
