"""External Gomocup (Piskvork) engines as agents, and the protocol they speak.

:class:`EngineAgent` runs an engine process and plays it as an agent (spec
``engine:PATH``). The other direction, any agent answering a tournament manager, is the
program :mod:`gomoku_apps.brain` (``gomoku brain AGENT_SPEC``).
"""

from agents.gomocup.engine_agent import EngineAgent
from agents.gomocup.errors import (
    EngineError,
    EngineExitedError,
    EngineIllegalMoveError,
    EngineTimeoutError,
)

__all__ = [
    "EngineAgent",
    "EngineError",
    "EngineExitedError",
    "EngineIllegalMoveError",
    "EngineTimeoutError",
]
