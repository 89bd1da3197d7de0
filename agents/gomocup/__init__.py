"""External Gomocup (Piskvork) engines as agents, and the protocol they speak.

:class:`EngineAgent` runs an engine process and plays it as an agent (spec
``engine:PATH``). The other direction, any agent answering a tournament manager, is the
program :mod:`gomoku_apps.brain` (``gomoku brain AGENT_SPEC``).
"""

from agents.gomocup.engine import (
    EngineError,
    EngineExitedError,
    EngineIllegalMoveError,
    EngineTimeoutError,
)
from agents.gomocup.engine_agent import EngineAgent

__all__ = [
    "EngineAgent",
    "EngineError",
    "EngineExitedError",
    "EngineIllegalMoveError",
    "EngineTimeoutError",
]
