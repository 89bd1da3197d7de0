"""Run an engine so that no process it starts outlives it (Linux).

``python reaper.py PROGRAM [ARGS...]`` starts the engine as its child and becomes the
*subreaper* of everything below it (``PR_SET_CHILD_SUBREAPER``): a process the engine
starts stays below this one even if it leaves the engine's process group and session
(``setsid``) and its parent exits, instead of being handed to init where nobody could
find it. The reaper stops, killing every process below it, when

- the engine exits (helpers it left behind die with it; the exit code is passed on,
  128 + N for a signal N, as a shell reports it);
- it gets SIGTERM (how :mod:`agents.gomocup.stopping` stops and kills an engine);
- its owner dies (the process that started it, even by ``kill -9``): it checks its
  parent every :data:`OWNER_CHECK_S`.

:mod:`agents.gomocup.stopping` runs it with ``python -I -S`` by file path: it imports
only the standard library, so it starts in milliseconds. While the engine runs, the
reaper collects every helper that exits (each exit wakes it), so none stays a zombie.
Killing a tree that is still forking is a race: the reaper kills what it sees and looks
again, until nothing is left below it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
"""prctl(2) option: orphans below this process are re-parented to it."""
OWNER_CHECK_S = 0.2
"""Seconds between checks that the owner is still alive (and the engine running)."""
KILL_ROUNDS = 200
"""Times to look for processes left below the reaper before giving up."""


def processes_below(root: int) -> list[int]:
    """Every process whose chain of parents reaches ``root``, from ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:  # gone meanwhile
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    below, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), ()):
            below.append(child)
            stack.append(child)
    return below


def kill_everything_below() -> None:
    """SIGKILL every process below this one and reap them, until none is left.

    A process killed here whose children were not yet killed hands them to this
    subreaper, so they show up (and die) in the next round.
    """
    for _ in range(KILL_ROUNDS):
        below = processes_below(os.getpid())
        if not below:
            return
        for pid in below:
            with contextlib.suppress(OSError):  # gone meanwhile
                os.kill(pid, signal.SIGKILL)
        reap()
        time.sleep(0.005)


def reap(engine: int | None = None) -> int | None:
    """Collect every child of this process that has exited: helpers the engine left
    behind would otherwise stay zombies below the reaper for as long as it runs.

    Returns the wait status of ``engine`` if it was among them, else None.
    """
    status = None
    while True:
        try:
            pid, child_status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status
        if pid == 0:
            return status
        if pid == engine:
            status = child_status


def exit_code(status: int) -> int:
    """A wait status as a shell's exit code: the code, or 128 + the signal."""
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def main(command: list[str]) -> int:
    """Run ``command`` below this process; kill what is left when it ends."""
    if not command:
        print("usage: reaper.py PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("reaper: prctl(PR_SET_CHILD_SUBREAPER) failed", file=sys.stderr)
        return 2
    owner = os.getppid()

    def stop(signum: int, frame: object) -> None:
        kill_everything_below()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    try:
        engine = subprocess.Popen(command)
    except OSError as error:
        print(f"cannot run {command[0]!r}: {error.strerror or error}", file=sys.stderr)
        return 127
    # Blocked (after the engine started: it inherits no mask), SIGCHLD is waited for:
    # the engine's exit wakes the loop at once, the owner check at least every
    # OWNER_CHECK_S.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
    while True:
        status = reap(engine.pid)
        if status is not None:
            code = exit_code(status)
            break
        if os.getppid() != owner:  # the owner died: nobody will read the engine
            code = 128 + signal.SIGKILL
            break
        signal.sigtimedwait({signal.SIGCHLD}, OWNER_CHECK_S)
    kill_everything_below()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
