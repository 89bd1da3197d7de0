"""Baseline Gomoku agents that play through the PettingZoo observation interface.

The package exports the Agent protocol, the search :class:`~agents.budget.Budget` and
the light agents (random, heuristic, alpha-beta); the others live in their subpackages
(:mod:`agents.search.mcts`, :mod:`agents.alphazero`, :mod:`agents.gomocup`,
:mod:`agents.sb3`). Spec names
(``"mcts:simulations=200"``) are registered by :mod:`agents.specs.parse` when it is
imported, and :func:`agents.specs.parse.make_agent` builds an agent from one. Agents
play each other through the one game loop, :func:`agents.game.play_game`.
"""

from agents.base import Agent, RandomAgent, TimedAgent, legal_actions
from agents.budget import Budget
from agents.classic.alphabeta import AlphaBetaAgent
from agents.classic.heuristic import HeuristicAgent

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "Budget",
    "HeuristicAgent",
    "RandomAgent",
    "TimedAgent",
    "legal_actions",
]
