"""Gomoku as a single-agent Gymnasium env: the learner against a built-in opponent.

Registered on ``import gomoku_env`` as ``gomoku_env/Gomoku-v0``::

    >>> import gymnasium, gomoku_env
    >>> env = gymnasium.make("gomoku_env/Gomoku-v0", board_size=9, opponent="random")
    >>> observation, info = env.reset(seed=0)
    >>> observation.shape, info["action_mask"].sum()
    ((9, 9, 5), np.int64(81))
    >>> observation, reward, terminated, truncated, info = env.step(40)

Observation: the AEC env's int8 planes from the learner's point of view (own stones,
opponent stones, last move, "I am black", points forbidden to the learner under renju),
channels last, or channels first with ``channels_first=True`` for PyTorch / SB3 CNN
extractors. Action: Discrete(N*N), one per
cell. ``action_masks()`` (the method name sb3-contrib's MaskablePPO looks for) and
``info["action_mask"]`` give the legal cells. Rewards from the learner's view: +1 win,
−1 loss, 0 draw and every other step. When the learner plays white, ``reset`` already
contains the opponent's first move. Under renju ``forbidden`` works as in the AEC env:
"mask" (default) leaves black's forbidden points out of the mask and playing one is an
illegal action; "lose" keeps them in and playing one loses.

When an episode ends, its last ``info`` holds the end-of-game keys every env reports
(``reason``, ``winner`` as "black"/"white"/None, ``winning_line`` as notation text,
``moves``; ``illegal_move`` for an illegal action): see :mod:`gomoku_env.outcome`.
With ``max_moves`` a game that reaches that many stones is truncated
(``truncated=True``, reward 0, reason "move_limit"). Changed with that contract: an
illegal action's ``reason`` is "illegal_move" (it was "illegal_action") with the detail
in ``info["illegal_move"]`` (it was ``info["illegal_action"]``), and ``winning_line``
is notation text (it was a tuple of actions: ``env.board.winning_line()`` gives them).

An opponent that raises or chooses an illegal action ends the episode: the error
(the opponent's own, or an IllegalMoveError naming the action) propagates from
``step`` or ``reset``, ``action_masks()`` is all False, and every later ``step``
raises RuntimeError naming the failure until ``reset()`` starts a new episode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from gomoku_env.board import Board
from gomoku_env.board_text import render_text
from gomoku_env.config import GameConfig, Rule
from gomoku_env.env_options import LearnerOptions, check_render_mode
from gomoku_env.errors import IllegalMoveError
from gomoku_env.game_start import start_game
from gomoku_env.game_state import COLORS, SEED_BOUND, GameState, observation_box
from gomoku_env.kernels import BLACK, EMPTY, WHITE
from gomoku_env.legal import check_action, check_action_type
from gomoku_env.opponents import AdaptiveOpponent, OpponentLike, resolve_opponent
from gomoku_env.outcome import ILLEGAL_MOVE_KEY
from gomoku_env.render.renderer import PICTURE_MODES, BoardRenderer


class GomokuEnv(gymnasium.Env):
    """The learner plays one colour, ``opponent`` the other; one step is one move each.

    Args:
        opponent: an Agent, a callable ``(observation_planes, action_mask) -> action``,
            or an agent spec such as ``"random"``; reseeded from ``reset(seed)``.
        board_size, win_length, rule: the game (see :class:`GameConfig`; defaults
            15, 5, "freestyle").
        play_as: the learner's colour, "black", "white" or "random" (drawn per episode).
        illegal_action: what an illegal learner action does: "lose" (the episode ends
            with −1), "raise" (an IllegalMoveError, state unchanged) or "random" (a
            random legal move is played instead, reported in ``info``).
        channels_first: observation shape (C, N, N) instead of (N, N, C).
        observation_dtype: "int8" (the planes as the env keeps them), or "uint8" or
            "float32" (copies, 0 and 1 still) for libraries that expect those.
        opening: moves played first in every episode, as actions or a notation string
            such as "h8 i9 h9" (as in the AEC env).
        random_opening: stones placed at random near the centre after ``opening``,
            before the learner's first move (colours alternating; the opponent answers
            first when the opening leaves it to move), drawn from the ``reset`` seed's
            generator: varied starts, as the arena's openings give in evaluation.
        render_mode: None, "ansi" (text), "human" (a pygame window) or "rgb_array"
            (pictures), as in the AEC env.
        config: the game as one :class:`GameConfig`, instead of the three options.
        forbidden: renju's forbidden points for black, "mask" or "lose" (see
            :data:`gomoku_env.game_state.FORBIDDEN_OPTIONS`).
        max_moves: stones on the board at which the episode is truncated (None: no
            limit); it must leave the learner a move after the random opening.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", *PICTURE_MODES],
        "render_fps": 2,
    }

    def __init__(
        self,
        opponent: OpponentLike = "random",
        board_size: int | None = None,
        win_length: int | None = None,
        rule: Rule | str | None = None,
        play_as: str = LearnerOptions.play_as,
        illegal_action: str = LearnerOptions.illegal_action,
        channels_first: bool = LearnerOptions.channels_first,
        render_mode: str | None = None,
        config: GameConfig | None = None,
        observation_dtype: str = LearnerOptions.observation_dtype,
        random_opening: int = LearnerOptions.random_opening,
        forbidden: str = LearnerOptions.forbidden,
        max_moves: int | None = LearnerOptions.max_moves,
        opening: str | list[int] | None = None,
    ) -> None:
        self.options = LearnerOptions(
            game=GameConfig.from_options(config, board_size, win_length, rule),
            forbidden=forbidden,
            opening=opening,
            random_opening=random_opening,
            max_moves=max_moves,
            play_as=play_as,
            illegal_action=illegal_action,
            channels_first=channels_first,
            observation_dtype=observation_dtype,
        )
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.renderer = (
            BoardRenderer(render_mode, self.metadata["render_fps"])
            if render_mode in PICTURE_MODES
            else None
        )
        self.opponent = resolve_opponent(opponent, self.config)
        self.observation_space = observation_box(
            self.config.board_size,
            self.options.channels_first,
            self.options.observation_dtype,
        )
        self.action_space = spaces.Discrete(self.config.cells)
        self.learner_color = BLACK
        self.game = GameState(
            self.config, self.options.forbidden, self.options.max_moves
        )
        self._start_game()

    @property
    def config(self) -> GameConfig:
        """The game: board size, win length and rule."""
        return self.options.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.opponent.reset(seed=int(self.np_random.integers(SEED_BOUND)))
        play_as = self.options.play_as
        if play_as == "random":
            self.learner_color = BLACK if self.np_random.random() < 0.5 else WHITE
        else:
            self.learner_color = COLORS[play_as]
        self._start_game(self._opponent_move)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._opponent_failure is not None:
            raise RuntimeError(
                f"the episode ended when the opponent failed ({self._opponent_failure})"
                "; call reset() first"
            )
        if self._episode_over:
            raise RuntimeError(
                "step() called on a finished episode; call reset() first"
            )
        info: dict[str, Any] = {}
        action = self._checked_action(action, info)
        if action is None:
            info = self.game.end_info(illegal_move=info[ILLEGAL_MOVE_KEY])
            info.update(self._report_result(-1.0))
            return self._observation(), -1.0, True, False, self._info(info)
        self._play(action)
        if not self._episode_over:
            self._play_opponent()
        if self._episode_over:
            info.update(self.game.end_info())
            info.update(self._report_result(self._reward()))
        truncated = self.game.truncated
        terminated = self._episode_over and not truncated
        return (
            self._observation(),
            self._reward(),
            terminated,
            truncated,
            self._info(info),
        )

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once it is over)."""
        return self._legal_mask().astype(bool)

    @property
    def board(self) -> Board:
        """The position: the moves played so far."""
        return self.game.board

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.renderer is not None:
            return self.renderer.render(self.board)
        return render_text(self.board)

    def close(self) -> None:
        """Close the window of the "human" render mode, if one was opened."""
        if self.renderer is not None:
            self.renderer.close()

    def _start_game(self, opponent_reply: Callable[[], int] | None = None) -> None:
        """A new game by the envs' one start rule (:mod:`gomoku_env.game_start`);
        ``opponent_reply`` gives the opponent's first move when it is to move."""
        self._forfeited = False
        self._opponent_failure: str | None = None
        start_game(
            self.game,
            self.np_random,
            self.options.opening,
            self.options.random_opening,
            opponent_reply=opponent_reply,
            learner_color=self.learner_color,
        )

    @property
    def _episode_over(self) -> bool:
        """Over by the game's end (:data:`gomoku_env.outcome.END_REASONS`) or a
        forfeit."""
        return self._forfeited or self.game.over

    def _legal_mask(self) -> np.ndarray:
        if self._forfeited or self._opponent_failure is not None:
            return np.zeros(self.config.cells, dtype=np.int8)
        return self.game.legal_mask()

    def _checked_action(self, action: Any, info: dict[str, Any]) -> int | None:
        """The action to play, a random stand-in, or None when the learner forfeits."""
        action = check_action_type(action)
        try:
            action = check_action(action, self.config.cells)
            self.game.check_move(action)
            return action
        except IllegalMoveError as error:
            if self.options.illegal_action == "raise":
                raise
            info[ILLEGAL_MOVE_KEY] = str(error)
        if self.options.illegal_action == "lose":
            self._forfeited = True
            return None
        legal = np.flatnonzero(self.game.legal_mask())
        replacement = int(self.np_random.choice(legal))
        info["replaced_action"] = replacement
        return replacement

    def _play(self, action: int) -> None:
        self.game.play(action)

    def _play_opponent(self) -> None:
        self._play(self._opponent_move())

    def _opponent_move(self) -> int:
        """The opponent's legal reply in the game as it stands; a failure of the
        opponent ends the episode."""
        observation = {
            "observation": self.game.observation(self.board.to_move),
            "action_mask": self.game.legal_mask(),
        }
        try:
            return self._opponent_action(observation)
        except BaseException as error:
            self._opponent_failure = f"{type(error).__name__}: {error}"
            raise

    def _opponent_action(self, observation: dict[str, np.ndarray]) -> int:
        """The opponent's legal reply; IllegalMoveError if it chooses another."""
        try:
            action = check_action(self.opponent.act(observation), self.config.cells)
            self.game.check_move(action)
        except (IllegalMoveError, TypeError) as error:
            raise IllegalMoveError(
                f"the opponent {self.opponent!r} chose an illegal action: {error}"
            ) from None
        return action

    def _report_result(self, reward: float) -> dict[str, Any]:
        """Tell an :class:`~gomoku_env.opponents.AdaptiveOpponent` the learner's score
        in the game that ended with ``reward``; its info items (none from others)."""
        if not isinstance(self.opponent, AdaptiveOpponent):
            return {}
        scores = np.array([(reward + 1) / 2])
        return self.opponent.game_results(np.zeros(1, dtype=np.int64), scores)[0]

    def _reward(self) -> float:
        if self.board.winner == EMPTY:
            return 0.0
        return 1.0 if self.board.winner == self.learner_color else -1.0

    def _observation(self) -> np.ndarray:
        planes = self.game.observation(self.learner_color)
        if self.options.channels_first:
            planes = np.ascontiguousarray(planes.transpose(2, 0, 1))
        return planes.astype(self.observation_space.dtype, copy=False)

    def _info(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        info = dict(extra or {})
        info["action_mask"] = self._legal_mask()
        info["learner_color"] = "black" if self.learner_color == BLACK else "white"
        info["moves"] = len(self.board.moves)
        return info
