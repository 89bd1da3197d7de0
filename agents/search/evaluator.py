"""The leaf-evaluator seam of the search core: what a search asks of a leaf.

Two kinds of evaluator, peers to the search (as OpenSpiel's ``RandomRolloutEvaluator``
and its AlphaZero evaluator are):

* an :class:`Evaluator` is called from Python with a batch of leaf positions (from one
  search or many stepped together) and returns priors and values:
  :class:`agents.search.pattern_evaluator.PatternEvaluator`,
  :class:`agents.alphazero.evaluator.NetworkEvaluator`, or your own;
* a :class:`RolloutEvaluator` plays each leaf out inside the compiled search, a whole
  batch of simulations per call with no Python in between; the tree recognises it by
  its type.

>>> RolloutEvaluator().rollout, RolloutEvaluator(rollout="random").rollout
('tactical', 'random')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

ROLLOUTS = ("tactical", "random")


@runtime_checkable
class Evaluator(Protocol):
    """Priors and values for a batch of positions.

    ``planes`` is (batch, H, W, C) int8, channels last, the env's observation planes from
    the point of view of the side to move; ``masks`` is (batch, H*W) int8 with 1 on legal
    moves. Returns ``priors`` (batch, H*W) float32, zero off the mask and summing to 1,
    and ``values`` (batch,) float32 in [-1, 1] for the side to move.
    """

    def evaluate(
        self, planes: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class RolloutEvaluator:
    """A leaf's value is the result of one game played out from it; priors are uniform.

    Attributes:
        rollout: ``"tactical"`` rollouts take a win in one and block the opponent's,
            else play at random (slower, far more telling); ``"random"`` rollouts are
            uniformly random.
    """

    rollout: str = "tactical"

    def __post_init__(self) -> None:
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, got {self.rollout!r}")

    @property
    def tactical(self) -> bool:
        """Whether the rollouts take and block wins in one."""
        return self.rollout == "tactical"


SearchEvaluator = RolloutEvaluator | Evaluator
"""Whatever a search can evaluate its leaves with."""
