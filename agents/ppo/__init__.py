"""PPO: the package's learned baseline without search.

:mod:`agents.ppo.training` is the recipe (a warm start from the heuristic's moves, then
PPO against the heuristic on the compiled vector env); :mod:`agents.ppo.policy` plays a
trained policy as the ``ppo`` agent spec (``ppo:weights=9x9`` is the one shipped).
Both need torch (the ``ppo`` extra); importing this package does not.
"""
