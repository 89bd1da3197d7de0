"""Stable-Baselines3 integration: CNN extractor, models as agents, self-play, VecEnv.

Importing this package imports torch and stable-baselines3 (install the ``sb3`` extra);
``import gomoku_env`` alone never does.
"""

from agents.sb3.features import GomokuCNN
from agents.sb3.policy_agent import PolicyAgent, load_agent
from agents.sb3.self_play import PolicyPool, SelfPlayCallback, SelfPlayOpponent

__all__ = [
    "GomokuCNN",
    "PolicyAgent",
    "PolicyPool",
    "SelfPlayCallback",
    "SelfPlayOpponent",
    "load_agent",
]
