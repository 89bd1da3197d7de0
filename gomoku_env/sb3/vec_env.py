"""The compiled vector env behind Stable-Baselines3's ``VecEnv`` interface.

SB3 algorithms take a ``VecEnv``; wrapping :class:`GomokuVectorEnv` in one keeps the
whole batch in one compiled call instead of one Python env per game as ``DummyVecEnv``
does. MaskablePPO finds the masks through ``env_method("action_masks")``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnvIndices,
    VecEnvStepReturn,
)

from gomoku_env.vector_env import GomokuVectorEnv


class GomokuSB3VecEnv(VecEnv):
    """``num_envs`` Gomoku games as an SB3 VecEnv (arguments of ``GomokuVectorEnv``).

    Args:
        seed: seeds the first ``reset`` (SB3's ``seed()`` also works).
    """

    def __init__(self, num_envs: int, seed: int | None = None, **kwargs: Any) -> None:
        self.games = GomokuVectorEnv(num_envs, **kwargs)
        super().__init__(
            num_envs,
            self.games.single_observation_space,
            self.games.single_action_space,
        )
        self._next_seed = seed
        self._actions = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> np.ndarray:
        seed = self._next_seed if self._next_seed is not None else self._seeds[0]
        observations, _ = self.games.reset(seed=seed)
        self._next_seed = None
        self._reset_seeds()
        return observations

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next ``reset`` (SB3 convention: per-game seeds seed + index)."""
        self._next_seed = seed
        return [
            None if seed is None else seed + index for index in range(self.num_envs)
        ]

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> VecEnvStepReturn:
        observations, rewards, terminated, _, info = self.games.step(self._actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for game in np.flatnonzero(terminated):
            infos[game]["terminal_observation"] = info["final_obs"][game]
        return observations, rewards, terminated, infos

    def action_masks(self) -> np.ndarray:
        """Boolean (num_envs, N*N) mask of legal actions."""
        return self.games.action_masks()

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(
                f"GomokuSB3VecEnv has no per-game method {method_name!r}"
            )
        return list(self.action_masks()[self._indices(indices)])

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        raise AttributeError(f"GomokuSB3VecEnv has no per-game attribute {attr_name!r}")

    def set_attr(
        self, attr_name: str, value: Any, indices: VecEnvIndices = None
    ) -> None:
        raise AttributeError(f"GomokuSB3VecEnv has no settable attribute {attr_name!r}")

    def env_is_wrapped(
        self, wrapper_class: type, indices: VecEnvIndices = None
    ) -> list[bool]:
        return [False] * len(self._indices(indices))

    def close(self) -> None:
        """Nothing to release: the games are plain arrays."""

    def _indices(self, indices: VecEnvIndices) -> Iterable[int] | np.ndarray:
        if indices is None:
            return np.arange(self.num_envs)
        if isinstance(indices, int):
            return np.array([indices])
        return np.asarray(list(indices))
