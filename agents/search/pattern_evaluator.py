"""PatternEvaluator: the line-shape scores of :mod:`agents.patterns.values` as a leaf evaluator.

It implements :class:`agents.search.Evaluator`, so the search core runs PUCT with it
exactly as with a network. For each leaf (planes from the side to move) it rebuilds the
cells and scores every empty point for both colours with
:func:`agents.patterns.values.point_values`:

* priors: softmax over the legal points of ``log(1 + move score) / temperature``, the
  move score being ATTACK_WEIGHT × the point's value to the mover + DEFENCE_WEIGHT × its
  value to the opponent (as the heuristic agent ranks moves), i.e. priors proportional
  to ``(1 + score) ** (1 / temperature)``;
* value: ``tanh(value_scale × (log(1 + ATTACK_WEIGHT × best own point) - log(1 + best
  opponent point)))``, the mover's best threat against the opponent's, with the tempo
  (the mover plays first) counted by the attack weight.

The whole batch is ONE compiled call; no Python loop over leaves or cells.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.patterns.shapes import build_shape_table
from agents.patterns.values import ATTACK_WEIGHT, DEFENCE_WEIGHT, point_values
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number
from gomoku_env.kernels import other_color
from gomoku_env.planes import read_cells


@njit(cache=True, nogil=True)
def _leaf_priors(
    own: np.ndarray, theirs: np.ndarray, mask: np.ndarray, inverse_temperature: float,
    out: np.ndarray,
) -> None:  # fmt: skip
    """Softmax of log(1 + move score) / T over the mask (a stable max shift)."""
    best = -np.inf
    for point in range(out.size):
        out[point] = -np.inf
        if mask[point] != 0:
            score = ATTACK_WEIGHT * max(own[point], 0) + DEFENCE_WEIGHT * theirs[point]
            out[point] = np.log1p(max(score, 0)) * inverse_temperature
            best = max(best, out[point])
    total = 0.0
    for point in range(out.size):
        out[point] = np.exp(out[point] - best) if mask[point] != 0 else 0.0
        total += out[point]
    for point in range(out.size):
        out[point] = out[point] / total if total > 0 else 0.0


@njit(cache=True, nogil=True)
def evaluate_patterns(
    planes: np.ndarray, masks: np.ndarray, win_length: int, rule_code: int,
    table: np.ndarray, inverse_temperature: float, value_scale: float,
    priors: np.ndarray, values: np.ndarray,
) -> None:  # fmt: skip
    """Write ``priors`` (B, H*W) float32 and ``values`` (B,) float32 for a batch of
    leaves, ``planes`` (B, H, W, C) int8 from the side to move, ``masks`` (B, H*W)."""
    size = planes.shape[1]
    count = size * size
    cells = np.empty(count, dtype=np.int8)
    own = np.empty(count, dtype=np.int64)
    theirs = np.empty(count, dtype=np.int64)
    row = np.empty(count, dtype=np.float64)
    for leaf in range(planes.shape[0]):
        mover = read_cells(planes[leaf], cells)
        other = other_color(mover)
        point_values(cells, size, win_length, rule_code, mover, table, own)
        point_values(cells, size, win_length, rule_code, other, table, theirs)
        _leaf_priors(own, theirs, masks[leaf], inverse_temperature, row)
        priors[leaf, :] = row
        attack = np.log1p(ATTACK_WEIGHT * max(own.max(), 0))
        defence = np.log1p(max(theirs.max(), 0))
        values[leaf] = np.tanh(value_scale * (attack - defence))


class PatternEvaluator:
    """Priors and values from line shapes, for PUCT search without a network.

    Args:
        config: the game's rules (board size, win length, rule).
        temperature: > 0; priors ∝ (1 + move score) ** (1 / temperature), so a lower
            temperature trusts the pattern ranking more.
        value_scale: > 0; the value is tanh(value_scale × the log-score difference).
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        temperature: float = 1.0,
        value_scale: float = 0.25,
    ) -> None:
        self.config = config if config is not None else GameConfig()
        self.temperature = check_number("temperature", temperature, above=0)
        self.value_scale = check_number("value_scale", value_scale, above=0)
        self._table = build_shape_table(self.config.win_length)

    def evaluate(
        self, planes: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Priors (B, H*W) float32 over each mask and values (B,) float32 in [-1, 1]."""
        size = self.config.board_size
        if planes.ndim != 4 or planes.shape[1:3] != (size, size):
            raise ValueError(
                f"planes must be (batch, {size}, {size}, channels), got {planes.shape}"
            )
        if masks.shape != (planes.shape[0], size * size):
            raise ValueError(
                f"masks must be ({planes.shape[0]}, {size * size}), got {masks.shape}"
            )
        priors = np.zeros(masks.shape, dtype=np.float32)
        values = np.zeros(planes.shape[0], dtype=np.float32)
        evaluate_patterns(
            np.ascontiguousarray(planes, dtype=np.int8),
            np.ascontiguousarray(masks, dtype=np.int8),
            self.config.win_length, self.config.rule.code, self._table,
            1.0 / self.temperature, self.value_scale, priors, values,
        )  # fmt: skip
        return priors, values
