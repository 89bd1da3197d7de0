"""PPO: the package's learned baseline without search.

:mod:`agents.ppo.training` is the recipe (``gomoku train ppo``: a warm start on the
teacher games, then PPO against the heuristic on the compiled vector env; its settings
in :mod:`agents.ppo.config`); :mod:`agents.ppo.policy` plays a trained policy as the
``ppo`` agent spec (``ppo:weights=9x9`` is the one shipped). Both need torch (the
``ppo`` extra); importing this package does not.
"""
