"""Agents that fail in the web server's agent processes (loaded by path in specs)."""

import os
import signal
import time
from pathlib import Path

import numpy as np


def failing_spec(name: str) -> str:
    """The spec of one of the agents in this file."""
    return f"python:{Path(__file__).resolve()}:{name}"


class _FirstLegal:
    def __init__(self, config=None, seed=None):
        pass

    def reset(self, seed=None):
        pass


class Crasher(_FirstLegal):
    """Raises in its move."""

    def act(self, observation):
        raise RuntimeError("boom in act")


class Exiter(_FirstLegal):
    """Ends its own process in its move (as a crash in native code would)."""

    def act(self, observation):
        os._exit(3)


class Sleeper(_FirstLegal):
    """Sleeps through its move (the worker's alarm ends it)."""

    def act(self, observation):
        time.sleep(60)
        return int(np.flatnonzero(observation["action_mask"])[0])


class Deaf(_FirstLegal):
    """Blocks the alarm signal and sleeps, like a search stuck in native code: only
    the server killing its process ends it."""

    def act(self, observation):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(60)
        return 0


class Illegal(_FirstLegal):
    """Answers an occupied or off-board action."""

    def act(self, observation):
        return -1
