"""How talking to a Gomocup engine fails, and how a game loop scores each failure."""

from __future__ import annotations

from agents.base import AgentFailedError


class EngineError(AgentFailedError):
    """An engine refused a command or answered something that is not an answer."""


class EngineTimeoutError(EngineError):
    """An engine did not answer within its time (a game loop's forfeit: timeout)."""

    forfeit_reason = "timeout"


class EngineIllegalMoveError(EngineError):
    """An engine answered a point that is off the board or taken (forfeit: illegal_move)."""

    forfeit_reason = "illegal_move"


class EngineExitedError(EngineError):
    """An engine process ended (or closed its output) while we were talking to it."""
