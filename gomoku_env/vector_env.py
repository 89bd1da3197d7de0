"""Many single-agent Gomoku games stepped together: a Gymnasium ``VectorEnv``.

Against the random opponent one ``step`` is one compiled call for all games (learner
moves, random replies, resets of finished games). Any other opponent is asked for all
pending replies at once: through ``act_batch(planes, masks, games)`` when it has one (a
self-play snapshot, one network forward for every game; the ``"heuristic"`` spec, one
compiled call for every game), else game by game through its ``act(observation)``.

Finished games (terminated, or truncated at ``max_moves``) reset in the same step
(Gymnasium's ``AutoresetMode.SAME_STEP``): the returned observation is the new game's,
and ``info["final_obs"]`` holds the last observation of the games flagged in
``info["_final_obs"]``. For the same games ``info`` holds the end-of-game keys every env
reports (``reason``, ``winner``, ``winning_line``, ``moves``; :mod:`gomoku_env.outcome`)
as arrays of length ``num_envs`` with their ``_key`` masks; an illegal learner action
adds ``illegal_move`` (with ``_illegal_move``), the message naming why. Renju's
forbidden points are always masked here: playing one is an illegal action.

An opponent that raises or chooses an illegal action ends every game: the error
propagates from ``step`` or ``reset``, ``action_masks()`` is all False, and every later
``step`` raises RuntimeError naming the failure until ``reset()`` starts new games (the
games it interrupted wait for the opponent's reply, so they cannot go on).

    >>> import numpy as np
    >>> from gomoku_env.vector_env import GomokuVectorEnv
    >>> envs = GomokuVectorEnv(4, board_size=9)
    >>> observations, info = envs.reset(seed=0)
    >>> observations.shape
    (4, 9, 9, 5)
    >>> actions = np.array([np.flatnonzero(mask)[0] for mask in envs.action_masks()])
    >>> observations, rewards, terminated, truncated, info = envs.step(actions)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import numba
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from gomoku_env import batch_kernels, batch_state
from gomoku_env.batch_state import allocate_batch, allocate_output
from gomoku_env.config import GameConfig, Rule
from gomoku_env.env_options import LearnerOptions
from gomoku_env.errors import IllegalMoveError
from gomoku_env.fields import check_number
from gomoku_env.game_start import check_starts, play_replies
from gomoku_env.game_state import COLORS, SEED_BOUND, observation_box
from gomoku_env.kernels import EMPTY
from gomoku_env.legal import (
    check_actions,
    illegal_code,
    illegal_move_text,
    legal_from_forbidden,
)
from gomoku_env.opponents import OpponentLike
from gomoku_env.outcome import (
    OUTCOME_TERMINATED,
    OUTCOME_TRUNCATED,
    line_texts,
    vector_end_infos,
    vector_illegal_infos,
)
from gomoku_env.vector_opponents import VectorOpponents, opponent_view

ILLEGAL_CODES = {
    "lose": batch_state.ILLEGAL_LOSE,
    "random": batch_state.ILLEGAL_RANDOM,
}

COLOR_NAMES = np.array(["", "black", "white"], dtype=object)
"""Colour names by code (BLACK 1, WHITE 2), for the infos' ``learner_color``."""


def check_thread_count(num_threads: int) -> int:
    """``num_threads`` if it is an int from 1 to numba's thread pool size."""
    limit = numba.config.NUMBA_NUM_THREADS
    if (
        isinstance(num_threads, bool)
        or not isinstance(num_threads, int)
        or not 1 <= num_threads <= limit
    ):
        raise ValueError(
            f"num_threads must be an int from 1 to {limit} (numba's thread pool), "
            f"got {num_threads!r}"
        )
    return num_threads


@contextmanager
def numba_threads(count: int) -> Iterator[None]:
    """Run numba's parallel kernels on ``count`` threads, then restore the setting."""
    previous = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


class GomokuVectorEnv(VectorEnv):
    """``num_envs`` games of :class:`gomoku_env.gym_env.GomokuEnv`, stepped in one call.

    Arguments are those of ``GomokuEnv`` plus ``num_envs``; ``opponent`` may also be an
    object with ``act_batch(planes, masks, games) -> actions`` over channels-last planes
    of the games (slot numbers) ``games``. A spec string whose agent has ``act_batch``
    (``"heuristic"``) builds one agent for all games; any other spec string builds one
    agent per game, reset when its game starts; an Agent object
    or a callable is shared by all games, so it should not keep per-game state.
    ``action_masks()`` gives the (num_envs, N*N) legal mask for MaskablePPO.
    ``opening`` is played first in every game; ``random_opening`` stones are drawn
    after it from each game's own generator, so they are not the stones ``GomokuEnv``
    draws for the same seed.
    ``max_moves`` truncates a game at that many stones, as in ``GomokuEnv``.
    ``num_threads`` > 1 shares the games of a step among that many numba threads
    (same results; worth it for hundreds of games on idle cores, while on a busy
    machine one thread, the default, avoids waiting for a descheduled thread).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        opponent: OpponentLike = "random",
        board_size: int | None = None,
        win_length: int | None = None,
        rule: Rule | str | None = None,
        play_as: str = LearnerOptions.play_as,
        illegal_action: str = LearnerOptions.illegal_action,
        channels_first: bool = LearnerOptions.channels_first,
        num_threads: int = 1,
        config: GameConfig | None = None,
        observation_dtype: str = LearnerOptions.observation_dtype,
        random_opening: int = LearnerOptions.random_opening,
        max_moves: int | None = LearnerOptions.max_moves,
        opening: str | list[int] | None = None,
    ) -> None:
        check_number("num_envs", num_envs, minimum=1, integer=True)
        self.options = LearnerOptions(
            game=GameConfig.from_options(config, board_size, win_length, rule),
            opening=opening,
            random_opening=random_opening,
            max_moves=max_moves,
            play_as=play_as,
            illegal_action=illegal_action,
            channels_first=channels_first,
            observation_dtype=observation_dtype,
        )
        self.num_envs = num_envs
        self.num_threads = check_thread_count(num_threads)
        self._opponents = VectorOpponents(opponent, self.config, num_envs)
        self.random_opponent = self._opponents.random
        options = self.options
        self.single_observation_space = observation_box(
            self.config.board_size, options.channels_first, options.observation_dtype
        )
        self.single_action_space = spaces.Discrete(self.config.cells)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.batch = allocate_batch(
            num_envs,
            self.config,
            options.channels_first,
            options.random_opening,
            COLORS.get(options.play_as, batch_state.PLAY_AS_RANDOM),
            options.max_moves,
            options.opening,
        )
        self.out = allocate_output(self.batch)
        # Set once: looked up at every step.
        self._cells_by_game = self.batch.cells.reshape(num_envs, self.config.cells)
        self._observation_shape = self.single_observation_space.shape
        self._illegal_code = ILLEGAL_CODES.get(
            options.illegal_action, batch_state.ILLEGAL_LOSE
        )
        self._line_texts = line_texts(self.config.board_size, self.config.win_length)
        self._seeded = False
        self._opponent_failure: str | None = None

    @property
    def config(self) -> GameConfig:
        """The game: board size, win length and rule."""
        return self.options.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start new games in every slot; ``seed`` makes all of them reproducible."""
        if seed is not None or not self._seeded:
            sequence = np.random.SeedSequence(seed)
            self.batch.rng_state[:] = sequence.generate_state(self.num_envs, np.uint64)
            opponent_seeds = sequence.spawn(1)[0].generate_state(
                self.num_envs, np.uint64
            )
            self._opponents.reset(opponent_seeds, SEED_BOUND)
            self._seeded = True
        batch_kernels.reset_games(self.batch, self.out, self.random_opponent)
        self._check_starts()
        self._opponent_failure = None
        self._play_opponents()
        return self._observations(), {
            "action_mask": self.action_masks().astype(np.int8),
            "learner_color": self._learner_colors(),
        }

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if self._opponent_failure is not None:
            raise RuntimeError(
                f"the games ended when the opponent failed ({self._opponent_failure})"
                "; call reset() first"
            )
        actions = check_actions(actions, self.num_envs)
        if self.options.illegal_action == "raise":
            self._check_actions(actions)
        code = self._illegal_code
        # The colours of the games this step plays: for a game that ends, the colour
        # that its winner is read against, not that of the game started in its place.
        colors = self._learner_colors()
        if self.num_threads == 1:
            ended, illegal = batch_kernels.step_games(
                self.batch, self.out, actions, code, self.random_opponent
            )
        else:
            with numba_threads(self.num_threads):
                ended, illegal = batch_kernels.step_games_parallel(
                    self.batch, self.out, actions, code, self.random_opponent
                )
        if ended:
            self._check_starts()
        if not self.random_opponent:
            ended += self._play_opponents()
        observations, rewards = self._observations(), self.out.rewards.copy()
        info: dict[str, Any] = {
            "action_mask": self.action_masks().view(np.int8),
            "learner_color": colors,
        }
        if illegal:
            codes = self.out.record[:, batch_state.ILLEGAL_CODE]
            size = self.config.board_size
            info.update(vector_illegal_infos(codes, actions, size))
        if not ended:
            going_on = np.zeros(self.num_envs, dtype=np.bool_)
            return observations, rewards, going_on, going_on.copy(), info
        outcomes = self.out.record[:, batch_state.OUTCOME]
        finished = outcomes != 0
        info["final_obs"] = self._final_observations(finished)
        info["_final_obs"] = finished
        info.update(vector_end_infos(finished, self.out.record, self._line_texts))
        info.update(self._opponents.report_results(finished, rewards))
        return (
            observations,
            rewards,
            OUTCOME_TERMINATED[outcomes],
            OUTCOME_TRUNCATED[outcomes],
            info,
        )

    def _learner_colors(self) -> np.ndarray:
        """Each game's learner colour, "black" or "white", as the Gymnasium env's
        ``learner_color`` says it (a lookup of the batch's colour codes)."""
        return COLOR_NAMES[self.batch.learner_color]

    def action_masks(self) -> np.ndarray:
        """Boolean (num_envs, N*N) mask of each learner's legal actions (all False
        after an opponent failure)."""
        if self._opponent_failure is not None:
            return np.zeros((self.num_envs, self.config.cells), dtype=np.bool_)
        return self._legal()

    def _legal(self, games: np.ndarray | slice = slice(None)) -> np.ndarray:
        """Boolean masks of the side to move's legal points in ``games``: empty and,
        under renju, not forbidden to black."""
        cells = self._cells_by_game[games]
        if self.config.rule is not Rule.RENJU:
            # Nothing is forbidden, so the rule leaves the empty points: one NumPy
            # compare costs half the compiled call.
            return cells == EMPTY
        legal = np.empty(cells.shape, dtype=np.bool_)
        forbidden = self.batch.forbidden[games]
        legal_from_forbidden(
            cells.reshape(-1), forbidden.reshape(-1), legal.reshape(-1)
        )
        return legal

    @property
    def opponents(self) -> list[Any]:
        """The opponent objects: one shared by all games, or one per game (none for
        the random opponent, which the compiled step plays)."""
        return self._opponents.agents

    def _shape(self, planes: np.ndarray) -> np.ndarray:
        return planes.reshape((planes.shape[0], *self._observation_shape))

    def _observations(self) -> np.ndarray:
        """A copy of every game's planes, in the observation space's dtype."""
        dtype = self.single_observation_space.dtype
        return self._shape(self.batch.planes.astype(dtype, copy=True))

    def _final_observations(self, ended: np.ndarray) -> np.ndarray:
        """The last observations of the games that ``ended`` (zeros elsewhere),
        copying only their rows."""
        # np.zeros, not zeros_like: calloc's pages stay untouched where no game ended.
        final = np.zeros(self.out.final_planes.shape, dtype=np.int8)
        final[ended] = self.out.final_planes[ended]
        return self._shape(final).astype(
            self.single_observation_space.dtype, copy=False
        )

    def _opponent_view(self, games: np.ndarray) -> np.ndarray:
        """Channels-last planes of ``games`` from the opponent's side of the board."""
        planes = self._shape(self.batch.planes[games])
        if self.options.channels_first:
            planes = planes.transpose(0, 2, 3, 1)
        return opponent_view(planes, self.batch.forbidden[games])

    def _play_opponents(self) -> int:
        """Ask the non-compiled opponent for every pending reply until none is left
        (:func:`gomoku_env.game_start.play_replies`); the number of games the replies
        ended."""
        return play_replies(self.batch, self.out, self.config, self._asked_replies)

    def _asked_replies(self, games: np.ndarray) -> np.ndarray:
        """:meth:`_legal_replies`; a failure of the opponent ends the games (see the
        module docstring)."""
        try:
            return self._legal_replies(games)
        except BaseException as error:
            self._opponent_failure = f"{type(error).__name__}: {error}"
            raise

    def _check_starts(self) -> None:
        """ValueError naming the options if a game's start could not give a game to
        play (:mod:`gomoku_env.game_start`)."""
        check_starts(self.batch, self.out, self.config, not self.random_opponent)

    def _legal_replies(self, games: np.ndarray) -> np.ndarray:
        """The opponents' replies in ``games``; IllegalMoveError if one is illegal."""
        masks = self._legal(games).astype(np.int8)
        # A game's first reply comes right after its opening (and the learner's first
        # move, when the learner opens): its per-game agent starts a new game.
        first_reply = (
            self.batch.move_count[games] <= batch_state.start_stones(self.batch) + 1
        )
        view = self._opponent_view(games)
        replies = self._opponents.ask(games, view, masks, first_reply)
        bad = (replies < 0) | (replies >= masks.shape[1])
        bad |= masks[np.arange(games.size), replies % masks.shape[1]] == 0
        if bad.any():
            raise IllegalMoveError(
                f"the opponent chose illegal action {int(replies[bad][0])} "
                f"in game {int(games[bad][0])}"
            )
        return replies

    def _check_actions(self, actions: np.ndarray) -> None:
        """IllegalMoveError naming the first game whose action is not legal."""
        cells = self.config.cells
        off_board = (actions < 0) | (actions >= cells)
        taken = ~self._legal()[np.arange(self.num_envs), actions % cells]
        bad = np.flatnonzero(off_board | taken)
        if bad.size:
            game = int(bad[0])
            action = int(actions[game])
            size = self.config.board_size
            code = illegal_code(self.batch.cells, game * cells, size, action)
            raise IllegalMoveError(
                f"game {game}: {illegal_move_text(action, size, code)}"
            )
