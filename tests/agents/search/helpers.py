"""Shared helpers for the search tests: a recording uniform evaluator."""

from __future__ import annotations

import numpy as np


class UniformEvaluator:
    """Uniform priors over legal moves and a fixed value; records every call."""

    def __init__(self, value: float = 0.0) -> None:
        self.value = value
        self.batch_sizes: list[int] = []
        self.planes: list[np.ndarray] = []

    def evaluate(
        self, planes: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        self.batch_sizes.append(len(planes))
        self.planes.append(planes.copy())
        priors = masks.astype(np.float32)
        priors /= np.maximum(priors.sum(axis=1, keepdims=True), 1)
        return priors, np.full(len(planes), self.value, dtype=np.float32)
