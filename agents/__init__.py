"""Baseline Gomoku agents that play through the PettingZoo observation interface."""

from agents.base import Agent, TimedAgent, legal_actions
from agents.random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent", "TimedAgent", "legal_actions"]
