"""RandomAgent: uniform over the legal moves, reproducible under a seed."""

from __future__ import annotations

import numpy as np

from agents.base import legal_actions


class RandomAgent:
    """Plays a legal move chosen uniformly at random.

    Args:
        seed: seeds the agent's own ``numpy.random.Generator``; ``reset(seed)`` reseeds.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        return int(self._rng.choice(legal_actions(observation)))
