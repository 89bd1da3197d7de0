"""Shared helpers for the search tests: a recording uniform evaluator, the options of
trees valued by rollouts, and a plain-Python count of a subtree."""

from __future__ import annotations

import numpy as np

from agents.search import SearchOptions
from agents.search.arrays import TreeArrays

RANDOM_ROLLOUTS = SearchOptions(exploration=1.4, distance=0, rollout="random")
"""UCT over uniformly random rollouts on every legal point."""
TACTICAL_ROLLOUTS = SearchOptions(exploration=1.4, distance=0, rollout="tactical")
"""UCT over tactical rollouts (they take and block wins in one)."""


def subtree_size(tree: TreeArrays, node: int) -> int:
    """Nodes in the subtree under ``node`` (itself included), following child links."""
    count, stack = 0, [node]
    while stack:
        current = stack.pop()
        count += 1
        start = int(tree.edge_start[current])
        if start >= 0:
            children = tree.edge_child[start : start + tree.edge_count[current]]
            stack.extend(int(child) for child in children if child >= 0)
    return count


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
