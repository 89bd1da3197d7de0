"""A PettingZoo wrapper that plays one seat of the AEC env with an opponent.

The RL libraries that train on the AEC env (Tianshou, RLlib, TorchRL) give every seat
to a policy of their own. :class:`OpponentSeat` lets an opponent of the single-agent
envs (an Agent, a callable or a spec, as ``GomokuEnv(opponent=...)`` takes) play the
other seat inside ``step``: the library moves only for the learner, and one step's
``rewards`` hold the learner's move and the opponent's reply. When a game ends, an
:class:`~gomoku_env.opponents.AdaptiveOpponent` (the ``curriculum``) is told the
learner's score, as the single-agent envs tell it.

At a game's end every agent still takes its last step (``None``), as in any AEC env:
after the learner's winning move the opponent is selected for it. With
``opponent_leaves=True`` the wrapper takes that step too, so the learner alone is ever
selected (RLlib's wrapper needs this: it would otherwise report the opponent as an
agent of its own at every end the learner wins).

Several wrapped envs may share one opponent that answers many games
(a :class:`~gomoku_env.opponents.BatchOpponent` such as the curriculum): each env is
then one game ``slot`` of it, and the opponent is reset by whoever built it, never by
one env's reset. Any other opponent plays one game at a time and is reseeded at every
reset from the wrapper's generator.

>>> import gomoku_env
>>> env = OpponentSeat(gomoku_env.env(board_size=5, win_length=4), "random", "black_0")
>>> env.reset(seed=0)
>>> env.agent_selection
'black_0'
>>> env.step(12)  # the opponent's reply is played inside step
>>> env.agent_selection, int(env.observe("black_0")["action_mask"].sum())
('black_0', 23)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from gomoku_env.game_state import SEED_BOUND
from gomoku_env.opponents import (
    AdaptiveOpponent,
    BatchOpponent,
    OpponentLike,
    resolve_opponent,
)

RANDOM_SEAT = "random"
"""The learner's seat drawn anew for every game."""


class OpponentSeat(BaseWrapper):
    """The AEC env whose non-learner seat the ``opponent`` plays inside ``step``.

    Args:
        env: the AEC env (``gomoku_env.env(...)``, possibly wrapped).
        opponent: an Agent, a callable ``(planes, mask) -> action`` or a spec string.
        learner: the learner's agent (``"black_0"``, ``"white_0"``) or ``"random"``
            (drawn for each game).
        slot: this env's game slot of a shared batch opponent.
        opponent_leaves: when the learner's move ends the game, the opponent takes
            its last step inside ``step`` too, so that only the learner is ever
            selected. PettingZoo's ``api_test`` expects every agent to take its own
            last step (False, the default), as do Tianshou's and TorchRL's wrappers.
        name: what a fixed opponent's games are counted under in ``opponents``
            (default: ``opponent`` itself when it is a spec, else its repr).
        seed: seeds the wrapper's generator (the learner's colour when it is drawn,
            a fixed opponent's seeds) until ``reset(seed=...)`` reseeds it; none:
            fresh entropy. A wrapper that resets before it is seeded (Tianshou's
            does, in its constructor) then still plays the same games.

    Attributes:
        learner: the learner's agent in the current game.
        opponents: finished games by the opponent's name in them (the anchor's spec
            for the curriculum, else ``name``).
        name: the name of a fixed opponent's games in ``opponents``.
        last_result: the adaptive opponent's info of the latest finished game
            (``opponent``, ``learner_rating`` for the curriculum); empty before one.

    Raises:
        ValueError: ``learner`` names no agent of the env.
    """

    def __init__(
        self,
        env: AECEnv,
        opponent: OpponentLike,
        learner: str,
        slot: int = 0,
        opponent_leaves: bool = False,
        name: str | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(env)
        if learner != RANDOM_SEAT and learner not in env.possible_agents:
            raise ValueError(
                f"learner must be one of {env.possible_agents} or 'random', "
                f"got {learner!r}"
            )
        self.seat = learner
        self.learner = env.possible_agents[0] if learner == RANDOM_SEAT else learner
        self.opponent = resolve_opponent(opponent, env.unwrapped.config)
        if name is None:
            name = opponent if isinstance(opponent, str) else repr(self.opponent)
        self.name = name
        self.slot = slot
        self.opponent_leaves = opponent_leaves
        self.opponents: Counter[str] = Counter()
        self.last_result: dict[str, Any] = {}
        self._shared = isinstance(self.opponent, BatchOpponent)
        self._rng = np.random.default_rng(seed)
        self._reported = False
        self._step_rewards: dict[str, float] = {}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if self.seat == RANDOM_SEAT:
            self.learner = str(self._rng.choice(self.env.possible_agents))
        if not self._shared:
            self.opponent.reset(seed=int(self._rng.integers(SEED_BOUND)))
        self._reported = False
        self._step_rewards = {}
        self._play_opponent()

    def step(self, action: Any) -> None:
        self._step_rewards = {}
        self._env_step(action)
        self._play_opponent()

    @property
    def rewards(self) -> dict[str, float]:
        """Each agent's reward in the last ``step``: the learner's move and the
        opponent's replies (the AEC env's own ``rewards`` hold only the opponent's
        last move, which an opponent's last ``None`` step clears)."""
        return {agent: self._step_rewards.get(agent, 0) for agent in self.env.agents}

    def _env_step(self, action: Any) -> None:
        """One step of the wrapped env, its rewards added to this step's."""
        self.env.step(action)
        for agent, reward in self.env.rewards.items():
            self._step_rewards[agent] = self._step_rewards.get(agent, 0) + reward

    def _play_opponent(self) -> None:
        """The opponent's turns (and its last ``None`` step if it leaves) until the
        learner is selected or the finished opponent stays; then, once a game, the
        learner's score to an adaptive opponent."""
        env = self.env
        while env.agents and env.agent_selection != self.learner:
            opponent = env.agent_selection
            over = env.terminations[opponent] or env.truncations[opponent]
            if over and not self.opponent_leaves:
                break
            self._env_step(None if over else self._reply(env.observe(opponent)))
        learner = self.learner
        if self._reported or learner not in env.agents:
            return
        if env.terminations[learner] or env.truncations[learner]:
            self._report(float(env._cumulative_rewards[learner]))

    def _reply(self, observation: dict[str, np.ndarray]) -> int:
        if self._shared:
            planes, mask = observation["observation"], observation["action_mask"]
            games = np.array([self.slot])
            return int(self.opponent.act_batch(planes[None], mask[None], games)[0])
        return int(self.opponent.act(observation))

    def _report(self, reward: float) -> None:
        """Tell an adaptive opponent the learner's score in the game just ended."""
        self._reported = True
        if isinstance(self.opponent, AdaptiveOpponent):
            games, scores = np.array([self.slot]), np.array([(reward + 1) / 2])
            self.last_result = self.opponent.game_results(games, scores)[0]
        self.opponents[str(self.last_result.get("opponent", self.name))] += 1
