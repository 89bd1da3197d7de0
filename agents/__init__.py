"""Baseline Gomoku agents that play through the PettingZoo observation interface.

Each agent module registers its spec name with :func:`agents.specs.register_agent` when
it is imported, and this package imports every agent module, so any ``agents.*`` import
makes all specs available (in arena worker processes too).
"""

from agents.base import Agent, TimedAgent, legal_actions
from agents.classic.alphabeta import AlphaBetaAgent
from agents.classic.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "HeuristicAgent",
    "RandomAgent",
    "TimedAgent",
    "legal_actions",
]
