"""Baseline Gomoku agents that play through the PettingZoo observation interface."""

from agents.alphabeta import AlphaBetaAgent
from agents.base import Agent, TimedAgent, legal_actions
from agents.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "HeuristicAgent",
    "RandomAgent",
    "TimedAgent",
    "legal_actions",
]
