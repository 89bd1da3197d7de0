"""Starting an engine so that it can be stopped, and stopping it without a trace.

The engine runs in a process group of its own (a new session on POSIX), and on Linux
below :mod:`agents.gomocup.reaper`, which reaches also the processes that leave the
group and the session (``setsid``) and kills them all when the engine exits, when it
gets SIGTERM, or when its owner dies. Stopping therefore always goes through the
reaper first: SIGKILL to the whole group would kill the reaper too, and with it the
only process that can find the ones that left. Only then is the group killed, and,
should the reaper not have done its work (stopped, killed by someone else), every
process that was below it a moment before. Every wait has a time limit.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from agents.gomocup.reaper import processes_below

END_WAIT_S = 0.5
"""Seconds an engine gets to exit after END before it is killed."""
KILL_WAIT_S = 2.0
"""Seconds to wait for a killed engine to be gone (and its output to end)."""
REAPER = Path(__file__).with_name("reaper.py")
"""The launcher that keeps every process an engine starts below it (Linux only)."""
REAPER_RUNS_ENGINES = sys.platform.startswith("linux")
"""Whether engines run below :data:`REAPER` (it needs Linux's ``/proc`` and prctl)."""


def launch_command(program: str, arguments: Sequence[str]) -> list[str]:
    """The command line that runs ``program`` below the reaper where there is one."""
    if REAPER_RUNS_ENGINES:
        return [sys.executable, "-I", "-S", str(REAPER), program, *arguments]
    return [program, *arguments]


def start_engine(command: Sequence[str]) -> subprocess.Popen[str]:
    """Start ``command`` (launched as :func:`launch_command` says) with text pipes.

    Raises:
        OSError: it cannot be started.
    """
    return subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        bufsize=1,
        start_new_session=os.name == "posix",
        creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0),
    )


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot), None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _below(process: subprocess.Popen[str]) -> dict[int, str | None]:
    """Every process below the engine's reaper now, with its start time."""
    if not REAPER_RUNS_ENGINES or process.poll() is not None:
        return {}
    with contextlib.suppress(OSError):
        return {pid: _start_time(pid) for pid in processes_below(process.pid)}
    return {}


def kill_engine(process: subprocess.Popen[str]) -> None:
    """Kill the engine, its group and everything it started, at once.

    The reaper gets SIGTERM and up to :data:`KILL_WAIT_S` to kill what is below it;
    then the group is killed, and each process seen below the reaper before is
    killed if it still lives (the same process: its start time is unchanged).
    """
    below = _below(process)
    if REAPER_RUNS_ENGINES and process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=KILL_WAIT_S)
    if os.name != "posix":
        with contextlib.suppress(OSError):
            process.kill()
        return
    with contextlib.suppress(OSError):  # the group is already gone
        os.killpg(process.pid, signal.SIGKILL)
    for pid, started in below.items():
        if started is not None and _start_time(pid) == started:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def stop_engine(
    process: subprocess.Popen[str], threads: Sequence[threading.Thread]
) -> None:
    """END, a short wait, then :func:`kill_engine`; join the reader threads."""
    if process.poll() is None:
        try:
            process.stdin.write("END\n")
            process.stdin.flush()
        except (OSError, ValueError):
            pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=END_WAIT_S)
    kill_engine(process)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=KILL_WAIT_S)
    with contextlib.suppress(OSError, ValueError):
        process.stdin.close()
    deadline = time.monotonic() + KILL_WAIT_S
    for thread in threads:  # each ends, and closes its pipe, at the end of the output
        thread.join(timeout=max(deadline - time.monotonic(), 0))
