"""Ending a command while an agent may still be thinking in a background thread.

A thread left inside native code (a torch search) when the interpreter shuts down
makes the process abort ("terminate called without an active exception", exit 134).
So ``gomoku brain`` and ``gomoku play`` wait a moment for an abandoned search, and
if it is still running they flush their output and end the process at once, without
the interpreter's teardown.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

QUIT_GRACE_S = 2.0
"""Seconds to wait for a thinking agent before ending the process under it."""


def exit_after_thinking(wait: Callable[[float], bool], code: int) -> int:
    """``code`` once ``wait(QUIT_GRACE_S)`` says no agent thinks; else exit now.

    ``wait(timeout)`` waits up to ``timeout`` seconds and says whether the thinking
    thread has ended.
    """
    if not wait(QUIT_GRACE_S):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
