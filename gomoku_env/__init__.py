"""gomoku_env: Gomoku (five in a row) for reinforcement learning.

Importing the package registers ``gomoku_env/gomoku-v0`` in PettingZoo's AEC registry,
so ``pettingzoo.make("aec", "gomoku_env/gomoku-v0", board_size=9)`` works after
``import gomoku_env``, and the single-agent ``gomoku_env/Gomoku-v0`` in Gymnasium's, so
``gymnasium.make("gomoku_env/Gomoku-v0", opponent="random")`` works too, and
``gymnasium.make_vec("gomoku_env/Gomoku-v0", num_envs=64, board_size=9)`` builds the
compiled vector env (:class:`gomoku_env.vector_env.GomokuVectorEnv`).
"""

from importlib.metadata import PackageNotFoundError, version

import gymnasium
import pettingzoo

from gomoku_env.aec_env import env, raw_env
from gomoku_env.board import Board
from gomoku_env.config import GameConfig, Rule
from gomoku_env.errors import IllegalMoveError, NotationError
from gomoku_env.kernels import BLACK, EMPTY, WHITE
from gomoku_env.notation import action_to_notation, notation_to_action, parse_moves

try:
    __version__ = version("gomoku_env")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

ENV_ID = "gomoku_env/gomoku-v0"
GYM_ENV_ID = "gomoku_env/Gomoku-v0"

if ENV_ID not in pettingzoo.aec_registry:
    pettingzoo.register("aec", ENV_ID, entry_point="gomoku_env.aec_env:env")
if GYM_ENV_ID not in gymnasium.registry:
    gymnasium.register(
        GYM_ENV_ID,
        entry_point="gomoku_env.gym_env:GomokuEnv",
        vector_entry_point="gomoku_env.vector_env:GomokuVectorEnv",
    )

__all__ = [
    "BLACK",
    "EMPTY",
    "ENV_ID",
    "GYM_ENV_ID",
    "WHITE",
    "Board",
    "GameConfig",
    "IllegalMoveError",
    "NotationError",
    "Rule",
    "__version__",
    "action_to_notation",
    "env",
    "notation_to_action",
    "parse_moves",
    "raw_env",
]
