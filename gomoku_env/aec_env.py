"""
# Gomoku

| Import             | `from gomoku_env import env`                  |
|--------------------|-----------------------------------------------|
| Registered id      | `gomoku_env/gomoku-v0` (PettingZoo registry)   |
| Actions            | Discrete                                      |
| Parallel API       | No                                            |
| Manual Control     | No                                            |
| Agents             | `agents= ['black_0', 'white_0']`              |
| Agents             | 2                                             |
| Action Shape       | (board_size * board_size,)                    |
| Action Values      | Discrete(board_size * board_size)             |
| Observation Shape  | (board_size, board_size, 5)                   |
| Observation Values | [0, 1]                                        |

Gomoku (five in a row) on a square board of any size from 5 to 25. Two players take
turns placing stones; black moves first. The first player to make an unbroken line of
`win_length` stones horizontally, vertically or diagonally wins; the rule decides whether
a longer line also wins. Under `rule="renju"` black may not play the forbidden points
(overline, double four, double three; a move making an exact five is always allowed).

### Observation Space

A dict: `observation` holds int8 planes of shape (board_size, board_size, 5), channels
last, from the point of view of the observing agent, and `action_mask` an int8 vector of
length board_size * board_size with 1 for legal moves. The mask is all zeros for the agent
that is not to move and once the game is over. Under renju with `forbidden="mask"` black's
forbidden points are 0 in its mask.

| Channel | Meaning                                                        |
|---------|----------------------------------------------------------------|
| 0       | the observer's stones                                          |
| 1       | the opponent's stones                                          |
| 2       | the last move (one cell set; all zero before the first move)   |
| 3       | the observer's colour: all ones for black_0, all zeros for white_0 |
| 4       | points forbidden to the observer, if to move (see below)       |

Plane 4 holds black's renju forbidden points while black_0 is to move; it is all zeros
for white_0, while white is to move, under the other rules and once the game is over.

Row 0 of the planes is the top row of the board (row `board_size` in notation), column 0
the left column (column `a`).

### Action Space

Action `row * board_size + col` places a stone on that cell; `gomoku_env.notation`
converts to and from standard notation ("h8" is the centre of 15×15).

### Rewards

| Winning | Losing | Draw (board full) | Illegal move                  |
|---------|--------|-------------------|-------------------------------|
| +1      | -1     | 0                 | -1 for the offender, 0 other  |

An illegal move (occupied or off the board, or a forbidden point under renju with
`forbidden="mask"`) ends the game. Under renju with `forbidden="lose"` black may play a
forbidden point and loses (-1 black, +1 white). With `max_moves` a game that reaches
that many stones without ending is truncated: `truncations` True for both agents,
rewards 0.

When the game ends, every agent's `info` holds the keys that all of the package's envs
report (see `gomoku_env.outcome`, and "How a game ends" in the docs):

| Key            | Value                                                           |
|----------------|-----------------------------------------------------------------|
| `reason`       | how it ended: one of `gomoku_env.outcome.END_REASONS` (below)   |
| `winner`       | "black", "white", or None (a draw, an illegal move, a truncation) |
| `winning_line` | the winning points in notation, as "a1 b1 c1 d1 e1" ("" if none) |
| `moves`        | stones on the board                                             |
| `illegal_move` | after an illegal move only: why it was illegal                  |

`reason` is "five", "board_full", "no_legal_move" (renju, `forbidden="mask"`, every
empty point forbidden to black: a draw), "forbidden_overline", "forbidden_double_four",
"forbidden_double_three" (renju, `forbidden="lose"`: white wins), "illegal_move" or
"move_limit" (truncated). `winner` names colours, as in the other envs: the agent of
colour `c` is `f"{c}_0"`. `winning_line` is text so that every info value keeps one
shape from game to game, as Tianshou's buffers need;
`env.unwrapped.board.winning_line()` gives the actions.

### Arguments

``` python
gomoku_env.env(board_size=15, win_length=5, rule="freestyle", forbidden="mask",
               opening=None, random_opening=0, render_mode=None, max_moves=None)
gomoku_env.env(config=gomoku_env.GameConfig(9, 5, "renju"), forbidden="lose")
```

`config`: the game as one `gomoku_env.GameConfig`, instead of `board_size`, `win_length`
and `rule` (giving both is an error).

`board_size`: side of the board, 5 to 25.

`win_length`: stones in a row that win, 3 to board_size.

`rule`: "freestyle" (win_length or more wins), "standard" (exactly win_length wins) or
"renju" (win_length 5 only: black wins with exactly five and may not play overlines,
double fours or double threes, the threes judged recursively as in the international
rules; white wins with five or more).

`forbidden`: what a forbidden point does under renju (ignored by the other rules).
"mask" (default): it is 0 in black's action mask and playing it is an illegal move.
"lose": it stays in the mask and playing it loses, as in tournament play.

`opening`: moves played before the first step, as a list of actions or a notation string
such as "h8 i9 h9". `reset(options={"opening": ...})` replaces it for one episode.

`random_opening`: number of extra stones placed at random near the centre after
`opening`, drawn from the generator seeded by `reset(seed=...)`, for varied evaluation
positions.

`max_moves`: None, or the stone count (1 to board_size², more than the opening's
stones) at which a game that has not ended is truncated with reason "move_limit".

`render_mode`: None, "ansi" (a text board with coordinates and the last move marked),
"rgb_array" (an (H, W, 3) uint8 picture of a wooden board drawn with pygame-ce) or
"human" (the same picture in a window opened on the first render, at `render_fps`).
`env.unwrapped.set_overlay(heatmap=..., text=..., value=...)` draws what an agent thinks
(a policy or visit counts, a value) on the pictures, and `env.unwrapped.renderer.options`
(a `gomoku_env.render.RenderOptions`) sets cell size, move numbers and colours.

The full position is available to search agents as `env.unwrapped.board`, a
`gomoku_env.Board` with the moves played so far.

### Version History

* v0: Initial version (gomoku_env 0.1.0): rules freestyle, standard and renju (with the
  `forbidden` option); observation planes 0-4, plane 4 holding the points forbidden to
  the player to move. The end-of-game `winning_line` info is a notation string (it was a
  tuple of actions, plus `winning_line_notation`), so that Tianshou can store infos.
  One end-of-game contract with the Gymnasium and vector envs: `winner` is a colour,
  "black" or "white" (it was the agent name, "black_0" or "white_0"); the `max_moves`
  option truncates a game with reason "move_limit". (The Gymnasium env's illegal-action
  `reason` is "illegal_move", no longer "illegal_action", its detail
  `info["illegal_move"]`, and its `winning_line` notation text, no longer a tuple.)
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gomoku_env.board import Board
from gomoku_env.board_text import render_text
from gomoku_env.config import GameConfig, Rule
from gomoku_env.env_options import EnvOptions, check_render_mode
from gomoku_env.errors import IllegalMoveError
from gomoku_env.game_start import start_game
from gomoku_env.game_state import AGENTS, GameState, observation_box
from gomoku_env.kernels import BLACK, WHITE
from gomoku_env.render.overlay import Overlay
from gomoku_env.render.renderer import PICTURE_MODES, BoardRenderer

_AGENT_COLORS = {"black_0": BLACK, "white_0": WHITE}


def env(**kwargs: Any) -> AECEnv:
    """A Gomoku AEC env in PettingZoo's order-enforcing wrapper (see the module
    docstring).

    PettingZoo's TerminateIllegalWrapper and AssertOutOfBoundsWrapper are left out:
    ``raw_env`` judges every action by the contract all the package's envs share
    (:mod:`gomoku_env.legal`): a non-integer is a TypeError, and an integer off the
    board or on an occupied point is an illegal move that ends the game, with the
    rewards and ``reason`` the wrappers' assertion or end would lack.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Gomoku as a PettingZoo AEC env; see the module docstring for spaces and rewards.

    A view of one :class:`GameState`: a step plays the move there and turns the
    state's end of game into rewards and infos.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "rgb_array", "ansi"],
        "name": "gomoku_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        board_size: int | None = None,
        win_length: int | None = None,
        rule: Rule | str | None = None,
        forbidden: str = EnvOptions.forbidden,
        opening: str | list[int] | None = None,
        random_opening: int = EnvOptions.random_opening,
        render_mode: str | None = None,
        config: GameConfig | None = None,
        max_moves: int | None = EnvOptions.max_moves,
    ) -> None:
        super().__init__()
        game = GameConfig.from_options(config, board_size, win_length, rule)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.options = EnvOptions(
            game=game,
            forbidden=forbidden,
            opening=opening,
            random_opening=random_opening,
            max_moves=max_moves,
        )
        self.game = GameState(game, self.options.forbidden, self.options.max_moves)
        self.render_mode = render_mode
        self.renderer = (
            BoardRenderer(render_mode, self.metadata["render_fps"])
            if render_mode in PICTURE_MODES
            else None
        )
        self.possible_agents = list(AGENTS)
        observation_space = spaces.Dict(
            {
                "observation": observation_box(self.config.board_size),
                "action_mask": spaces.Box(0, 1, (self.config.cells,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(AGENTS, observation_space)
        self.action_spaces = {
            agent: spaces.Discrete(self.config.cells) for agent in AGENTS
        }
        self._np_random, _ = seeding.np_random(None)
        self._reset_state(self.options)

    @property
    def config(self) -> GameConfig:
        """The game: board size, win length and rule."""
        return self.options.game

    @property
    def board(self) -> Board:
        """The position: the moves played so far, for search agents and renderers."""
        return self.game.board

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        ended = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        if agent == self.agent_selection and not ended:
            mask = self.game.legal_mask()
        else:
            mask = np.zeros(self.config.cells, dtype=np.int8)
        return {
            "observation": self.game.observation(_AGENT_COLORS[agent]),
            "action_mask": mask,
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        episode = self.options
        if options and options.get("opening") is not None:
            episode = dataclasses.replace(episode, opening=options["opening"])
        self._reset_state(episode)

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if not self.agents:
            raise RuntimeError(
                "step() called after the game is over and every agent has taken its "
                "last step; call reset() first"
            )
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        game = self.game
        try:
            game.play(action)
        except IllegalMoveError as error:
            self._finish(game.end_info(illegal_move=str(error)), offender=agent)
        else:
            self.agent_selection = AGENTS[len(game.board.moves) % 2]
            if game.over:
                self._finish(game.end_info())
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self.renderer is not None:
            return self.renderer.render(self.board)
        return render_text(self.board)

    def set_overlay(
        self,
        heatmap: np.ndarray | None = None,
        text: str | None = None,
        value: float | None = None,
    ) -> None:
        """Draw a heat map, text or value on the pictures (see :class:`Overlay`).

        Calling it with no arguments clears the overlay. Raises ValueError for a heat
        map that does not fit the board or a value outside [-1, 1].
        """
        overlay = Overlay(heatmap, text, value)
        overlay.heat_for(self.config.board_size)
        if self.renderer is not None:
            empty = heatmap is None and text is None and value is None
            self.renderer.overlay = None if empty else overlay

    def close(self) -> None:
        """Close the window of the "human" render mode, if one was opened."""
        if self.renderer is not None:
            self.renderer.close()

    def _reset_state(self, episode: EnvOptions) -> None:
        """A new game from the opening and random stones of ``episode``."""
        start_game(self.game, self._np_random, episode.opening, episode.random_opening)
        self.agents = self.possible_agents[:]
        self.agent_selection = AGENTS[len(self.board.moves) % 2]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}

    def _finish(self, info: dict[str, Any], offender: str | None = None) -> None:
        """End the game for every agent with the same end-of-game ``info``: rewards
        from its winner, or -1 for the ``offender`` of an illegal move; truncated at
        the move limit, terminated otherwise."""
        winner = info["winner"]
        for agent in self.agents:
            if offender is not None:
                self.rewards[agent] = -1 if agent == offender else 0
            elif winner is None:
                self.rewards[agent] = 0
            else:
                self.rewards[agent] = 1 if agent == f"{winner}_0" else -1
        self.infos = {agent: dict(info) for agent in self.agents}
        ended = self.truncations if self.game.truncated else self.terminations
        ended.update(dict.fromkeys(self.agents, True))
        # Rewards are zero on every other step, so accumulating them only here is exact.
        self._accumulate_rewards()
