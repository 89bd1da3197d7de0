"""Self-play against frozen copies of the learner, with a pool of past snapshots.

The learner must not play against its live policy: the opponent would change inside a
rollout and PPO's data would stop matching its objective. :class:`SelfPlayCallback`
copies the learner's policy into a :class:`PolicyPool` every ``refresh_every`` steps;
each :class:`SelfPlayOpponent` (one per env) draws a snapshot per episode, usually the
newest and otherwise an older one, league style, so the learner keeps beating its past
selves rather than cycling.

The pool is shared by reference, so it works with envs in this process (SB3's
DummyVecEnv, the gym env, the vectorised env), not SubprocVecEnv.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from agents.sb3.policy_agent import PolicyAgent, policy_of
from gomoku_env.planes import OWN_STONES


class PolicyPool:
    """Frozen policy snapshots, newest last, at most ``capacity`` kept.

    Args:
        capacity: how many snapshots to keep (the oldest is dropped first).
        latest_probability: chance that an episode uses the newest snapshot.
    """

    def __init__(self, capacity: int = 10, latest_probability: float = 0.5) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        if not 0.0 <= latest_probability <= 1.0:
            raise ValueError(
                f"latest_probability must be in [0, 1], got {latest_probability}"
            )
        self.capacity = capacity
        self.latest_probability = latest_probability
        self.snapshots: list[PolicyAgent] = []

    def add(self, model: Any) -> None:
        """Freeze a copy of ``model``'s policy (sampling, on CPU) into the pool."""
        learner = policy_of(model)
        policy = type(learner)(**learner._get_constructor_parameters())
        policy.load_state_dict(learner.state_dict())
        policy.set_training_mode(False)
        for parameter in policy.parameters():
            parameter.requires_grad_(False)
        self.snapshots.append(PolicyAgent(policy, deterministic=False))
        del self.snapshots[: -self.capacity]

    def draw(self, rng: np.random.Generator) -> PolicyAgent | None:
        """A snapshot for one episode, or None while the pool is empty."""
        if not self.snapshots:
            return None
        if rng.random() < self.latest_probability:
            return self.snapshots[-1]
        return self.snapshots[int(rng.integers(len(self.snapshots)))]


class SelfPlayOpponent:
    """An Agent that plays a snapshot from ``pool`` (random moves while it is empty).

    As an Agent it draws a snapshot per episode at ``reset``. As the batched opponent of
    :class:`~gomoku_env.vector_env.GomokuVectorEnv` it draws one per game when that game
    starts and answers all games of a snapshot with one network forward.
    """

    def __init__(self, pool: PolicyPool, seed: int | None = None) -> None:
        self.pool = pool
        self._rng = np.random.default_rng(seed)
        self._snapshot: PolicyAgent | None = None
        self._game_snapshots: dict[int, PolicyAgent | None] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._snapshot = self.pool.draw(self._rng)
        self._game_snapshots.clear()

    def act(self, observation: dict[str, np.ndarray]) -> int:
        return self._play(
            self._snapshot,
            observation["observation"][None],
            observation["action_mask"][None],
        )[0]

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        """Actions for games ``games`` (slot numbers), each by its own game's snapshot."""
        stones = planes[..., OWN_STONES].sum(axis=(1, 2))
        for game, own in zip(games.tolist(), stones.tolist(), strict=True):
            if own == 0 or game not in self._game_snapshots:  # a new game
                self._game_snapshots[game] = self.pool.draw(self._rng)
        drawn = [self._game_snapshots[game] for game in games.tolist()]
        actions = np.empty(games.size, dtype=np.int64)
        for snapshot in {id(s): s for s in drawn}.values():
            rows = np.array([s is snapshot for s in drawn])
            actions[rows] = self._play(snapshot, planes[rows], masks[rows])
        return actions

    def _play(
        self, snapshot: PolicyAgent | None, planes: np.ndarray, masks: np.ndarray
    ) -> np.ndarray:
        if snapshot is None:
            return np.array(
                [self._rng.choice(np.flatnonzero(mask)) for mask in masks],
                dtype=np.int64,
            )
        return snapshot.act_batch(planes, masks)


class SelfPlayCallback(BaseCallback):
    """Snapshots the learner into ``pool`` at the start and each ``refresh_every``."""

    def __init__(
        self, pool: PolicyPool, refresh_every: int = 20_000, verbose: int = 0
    ) -> None:
        super().__init__(verbose)
        if refresh_every < 1:
            raise ValueError(f"refresh_every must be at least 1, got {refresh_every}")
        self.pool = pool
        self.refresh_every = refresh_every
        self._last_refresh = 0

    def _on_training_start(self) -> None:
        self.pool.add(self.model)
        self._last_refresh = self.num_timesteps

    def _on_step(self) -> bool:
        if self.num_timesteps - self._last_refresh >= self.refresh_every:
            self.pool.add(self.model)
            self._last_refresh = self.num_timesteps
            if self.verbose:
                print(
                    f"self-play: snapshot {len(self.pool.snapshots)} "
                    f"at {self.num_timesteps}"
                )
        return True
