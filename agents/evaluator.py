"""The leaf-evaluator seam of the search core.

A search asks an evaluator for move priors and a value for a batch of leaf positions.
Random rollouts and pattern scoring run inside the compiled search; a network (AlphaZero)
plugs in through this protocol, one call per batch of leaves gathered from one or many
searches.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


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
