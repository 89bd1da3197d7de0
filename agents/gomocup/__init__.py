"""The Gomocup (Piskvork) brain protocol: our agents as brains, engines as our agents.

- :class:`Brain` / :func:`run_brain`: any agent answering a tournament manager
  (``gomoku brain AGENT_SPEC``).
- :class:`EngineAgent`: an external engine playing as an agent (spec ``engine:PATH``).
"""

from agents.gomocup.brain import Brain, run_brain
from agents.gomocup.engine import EngineError, EngineExitedError, EngineTimeoutError
from agents.gomocup.engine_agent import EngineAgent

__all__ = [
    "Brain",
    "EngineAgent",
    "EngineError",
    "EngineExitedError",
    "EngineTimeoutError",
    "run_brain",
]
