"""What an agent thinks, drawn over the board: a heat map and a value or text caption.

An :class:`Overlay` is plain data (numpy, no pygame): build one from a policy, from MCTS
visit counts or from a value estimate, and hand it to ``env.unwrapped.set_overlay``
or to :func:`gomoku_env.render.render_board`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Overlay:
    """A heat map over the points and a caption under the board.

    Attributes:
        heatmap: one finite number per point, shape (cells,) or (size, size), row 0 at
            the top like actions. Positive values are drawn warm, negative ones cool,
            with opacity proportional to ``|value| / max |value|``, so a policy, visit
            counts or signed action values all read at a glance.
        text: shown in the caption strip instead of the status line.
        value: a position value in [-1, 1] (e.g. for the side to move), drawn as a bar
            with its number in the caption strip.
    """

    heatmap: np.ndarray | None = None
    text: str | None = None
    value: float | None = None

    def __post_init__(self) -> None:
        if self.heatmap is not None:
            heatmap = np.asarray(self.heatmap, dtype=np.float64)
            if heatmap.ndim not in (1, 2) or heatmap.size == 0:
                raise ValueError(
                    f"heatmap must be a (cells,) or (size, size) array, got shape "
                    f"{heatmap.shape}"
                )
            if not np.all(np.isfinite(heatmap)):
                raise ValueError("heatmap values must all be finite (no NaN or inf)")
            object.__setattr__(self, "heatmap", heatmap)
        if self.text is not None and not isinstance(self.text, str):
            raise TypeError(f"text must be a str, got {self.text!r}")
        if self.value is not None:
            value = float(self.value)
            if not math.isfinite(value) or not -1.0 <= value <= 1.0:
                raise ValueError(
                    f"value must be a number in [-1, 1], got {self.value!r}"
                )
            object.__setattr__(self, "value", value)

    def heat_for(self, board_size: int) -> np.ndarray | None:
        """The heat map as (cells,) values scaled to [-1, 1], checked against the board.

        Raises:
            ValueError: the heat map does not have one value per point of this board.
        """
        if self.heatmap is None:
            return None
        cells = board_size * board_size
        if self.heatmap.size != cells or (
            self.heatmap.ndim == 2 and self.heatmap.shape != (board_size, board_size)
        ):
            raise ValueError(
                f"heatmap of shape {self.heatmap.shape} does not fit a "
                f"{board_size}x{board_size} board (expected ({cells},) or "
                f"({board_size}, {board_size}))"
            )
        flat = self.heatmap.reshape(cells)
        peak = float(np.max(np.abs(flat)))
        return flat / peak if peak > 0 else np.zeros(cells)
