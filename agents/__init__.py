"""Baseline Gomoku agents that play through the PettingZoo observation interface."""

from agents.base import Agent, legal_actions
from agents.random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent", "legal_actions"]
