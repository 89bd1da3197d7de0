"""The envs' observation and action spaces, built in one place from a GameConfig.

Spaces are built once per env and the same objects are returned on every call, as
PettingZoo and Gymnasium expect.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from gomoku_env.config import GameConfig
from gomoku_env.planes import PLANE_COUNT

AGENTS = ("black_0", "white_0")


def observation_box(board_size: int, channels_first: bool = False) -> spaces.Box:
    """The int8 observation planes of one board, channels last or first."""
    shape = (board_size, board_size, PLANE_COUNT)
    if channels_first:
        shape = (PLANE_COUNT, board_size, board_size)
    return spaces.Box(0, 1, shape, dtype=np.int8)


def aec_spaces(
    config: GameConfig,
) -> tuple[dict[str, spaces.Space], dict[str, spaces.Space]]:
    """Observation (planes and action mask) and action spaces of each AEC agent."""
    observation_space = spaces.Dict(
        {
            "observation": observation_box(config.board_size),
            "action_mask": spaces.Box(0, 1, (config.cells,), dtype=np.int8),
        }
    )
    return (
        dict.fromkeys(AGENTS, observation_space),
        {agent: spaces.Discrete(config.cells) for agent in AGENTS},
    )
