"""Stable-Baselines3 adapters of the envs (install the ``sb3`` extra).

:class:`gomoku_env.sb3.vec_env.GomokuSB3VecEnv` puts the compiled vector env behind
SB3's ``VecEnv``. Policies, the feature extractor and self-play opponents, which import
torch, are agents: :mod:`agents.sb3`.
"""

from gomoku_env.errors import require_extra

require_extra(("stable_baselines3",), "sb3", "The SB3 VecEnv adapter (gomoku_env.sb3)")
