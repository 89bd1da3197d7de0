"""A Gomocup engine as a subprocess: send commands, read answers with timeouts.

A reader thread moves each line the engine writes into a queue, so waiting for an
answer can give up at a deadline however the engine misbehaves: a silent engine
raises :class:`EngineTimeoutError`, a dead one :class:`EngineExitedError` (with the end
of its stderr), and an ERROR or UNKNOWN answer :class:`EngineError`. MESSAGE and DEBUG
lines are collected, not mistaken for answers.

**Ready before the next command.** An engine may write its move before it is ready
for the next command, and lose (part of) a command that arrives in that gap. Rapfi
0.43 does: it reads commands word by word and skips every word it reads until its
search thread, which writes the move first, clears its "thinking" flag, so a ``TURN 5,9``
sent at once can come out as ``ERROR Unknown command: 5,9``, or vanish, and a
``RESTART`` or ``BEGIN`` vanishes without an answer. How long the gap lasts depends on
how busy the machine is, so no fixed delay closes it; and re-sending a command after an
error or a silence is unsafe, since the engine may have read it after all (a TURN read
twice puts two stones on its board). So after a move (an answer read with
``move=True``) the next :meth:`EngineProcess.send` first makes sure the engine reads
commands again: it sends ``ABOUT``, which changes nothing, and waits for the ABOUT
answer that :meth:`EngineProcess.identify` learnt at startup, sending ``ABOUT`` again
every :data:`PROBE_INTERVAL_S` while none comes (a lost one never will), and giving up
with :class:`EngineTimeoutError` after ``ready_timeout`` seconds. A later copy of that
answer (from a probe that was only slow) is recognised and skipped. An engine whose
ABOUT answer could be taken for an answer to something else (``OK``, a point, an error)
gets a plain pause of :data:`SETTLE_S` instead, the best that can be done for it.

**Stopping never blocks, and leaves nothing behind.** The engine runs in a process
group of its own (a new session on POSIX). :meth:`EngineProcess.close` sends END, waits
:data:`END_WAIT_S` for the engine to exit and then kills the whole group, so helper
processes the engine left behind (``sleep 100 & exec pbrain-x``) die with it instead of
holding its pipes open forever. On Linux the engine runs below :mod:`agents.gomocup.reaper`,
which also reaches the processes that leave the group (``setsid``), and kills them all
when the engine exits, when it is told to, or when its owner dies (even by ``kill -9``).
Each reader thread closes its own pipe when it reaches the end, so nothing here waits on
a pipe that some stray process still holds; every wait has a time limit. A finalizer
does the same when the object is collected or Python exits.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from agents.base import AgentFailedError

END_WAIT_S = 0.5
"""Seconds an engine gets to exit after END before its process group is killed."""
KILL_WAIT_S = 2.0
"""Seconds to wait for a killed engine to be gone (and its output to end)."""
EXIT_REPORT_WAIT_S = 0.5
"""Seconds to wait for an exit code, and for the last output of an engine that exited."""
REAPER = Path(__file__).with_name("reaper.py")
"""The launcher that keeps every process an engine starts below it (Linux only)."""
REAPER_RUNS_ENGINES = sys.platform.startswith("linux")
"""Whether engines run below :data:`REAPER` (it needs Linux's ``/proc`` and prctl)."""
EXIT_POLL_S = 0.1
"""While waiting for an answer, how often to check whether the engine has exited."""
PROBE_INTERVAL_S = 0.05
"""Seconds between ABOUT probes while waiting for an engine to be ready after a move."""
SETTLE_S = 0.05
"""Pause after a move for engines whose ABOUT answer cannot serve as a probe."""
STDERR_LINES = 20
"""Lines of the engine's stderr kept for error reports."""
NOTE_WORDS = ("MESSAGE", "DEBUG", "SUGGEST")
"""Lines an engine may write at any time; they are collected, never taken as answers."""
ERROR_WORDS = ("ERROR", "UNKNOWN")
"""The first words of an engine's refusal."""

_POINT = re.compile(r"\s*[+-]?\d+\s*,\s*[+-]?\d+\s*")


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


def _first_word(line: str) -> str:
    return line.split(" ", 1)[0].upper()


LINE_LIMIT = 4096
"""Characters of an engine's output line kept; the rest of a longer line is read and
dropped, so an engine that writes an endless line without a newline cannot grow the
arena's memory (it grew to 1.5 GB in 3 seconds)."""


def bounded_lines(stream: IO[str], limit: int = LINE_LIMIT) -> Iterator[str]:
    """The lines of ``stream``, each cut to ``limit`` characters."""
    while True:
        line = stream.readline(limit)
        if not line:
            return
        if len(line) == limit and not line.endswith("\n"):
            rest = line
            while rest and not rest.endswith("\n"):
                rest = stream.readline(limit)
        yield line


def _read_lines(stream: IO[str], sink: queue.Queue[str | None]) -> None:
    """Put each non-blank line of ``stream`` in ``sink``, then None; close ``stream``."""
    try:
        for line in bounded_lines(stream):
            if line.strip():
                sink.put(line.strip())
    except (OSError, ValueError):  # the stream was closed under us: treat as its end
        pass
    sink.put(None)
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _keep_tail(stream: IO[str], tail: deque[str]) -> None:
    """Keep the last lines of ``stream`` in ``tail`` until it ends; close ``stream``."""
    try:
        for line in bounded_lines(stream):
            tail.append(line.rstrip())
    except (OSError, ValueError):
        pass
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Kill the engine and every process left in its group (just the engine off POSIX).

    The group id is the engine's pid, which stays reserved as long as any process of
    the group lives; once the group is empty, killing it finds nobody.
    """
    if os.name == "posix":
        with contextlib.suppress(OSError):  # the group is already gone
            os.killpg(process.pid, signal.SIGKILL)
    else:
        with contextlib.suppress(OSError):
            process.kill()


def _stop(process: subprocess.Popen[str], threads: list[threading.Thread]) -> None:
    """END, a short wait, then the reaper's SIGTERM (it kills all below it) and a kill
    of the engine's group; every wait has a time limit."""
    if process.poll() is None:
        try:
            process.stdin.write("END\n")
            process.stdin.flush()
        except (OSError, ValueError):
            pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=END_WAIT_S)
    if REAPER_RUNS_ENGINES and process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=KILL_WAIT_S)
    _kill_group(process)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=KILL_WAIT_S)
    with contextlib.suppress(OSError, ValueError):
        process.stdin.close()
    deadline = time.monotonic() + KILL_WAIT_S
    for thread in threads:  # each ends, and closes its pipe, at the end of the output
        thread.join(timeout=max(deadline - time.monotonic(), 0))


class EngineProcess:
    """A running Gomocup engine.

    Args:
        command: the program and its arguments.
        messages: where MESSAGE/DEBUG lines go (a fresh bounded deque if not given).
        ready_timeout: seconds an engine may take after a move to read commands again.

    Raises:
        ValueError: the program cannot be started (missing, not executable).
    """

    def __init__(
        self,
        command: Sequence[str],
        messages: deque[str] | None = None,
        ready_timeout: float = 2.0,
    ) -> None:
        self.command = list(command)
        self.name = Path(self.command[0]).name
        self.messages = messages if messages is not None else deque(maxlen=1000)
        self.ready_timeout = ready_timeout
        self.about: str | None = None
        """The engine's ABOUT answer, once :meth:`identify` has asked for it."""
        self._probe: str | None = None
        self._moved_at: float | None = None
        program = shutil.which(self.command[0])
        if program is None:
            raise ValueError(
                f"cannot run engine {self.command[0]!r}: no such program, or it is "
                "not an executable file"
            )
        launch = [program, *self.command[1:]]
        if REAPER_RUNS_ENGINES:
            launch = [sys.executable, "-I", "-S", str(REAPER), *launch]
        try:
            self._process = subprocess.Popen(
                launch,
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
        except OSError as error:
            reason = error.strerror or str(error)
            raise ValueError(
                f"cannot run engine {self.command[0]!r}: {reason}"
            ) from None
        self._answers: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        threads = [
            threading.Thread(
                target=_read_lines, args=(self._process.stdout, self._answers)
            ),
            threading.Thread(
                target=_keep_tail, args=(self._process.stderr, self._stderr)
            ),
        ]
        for thread in threads:
            thread.daemon = True
            thread.start()
        self._stderr_reader = threads[1]
        self._finalizer = weakref.finalize(self, _stop, self._process, threads)

    @property
    def alive(self) -> bool:
        """Whether the process is still running and not closed by us."""
        return self._finalizer.alive and self._process.poll() is None

    @property
    def pid(self) -> int:
        """The engine's process id, which is also the id of its process group."""
        return self._process.pid

    def send(self, line: str) -> None:
        """Write one command line, once the engine is ready for it (see the module)."""
        if self._moved_at is not None:
            self._wait_until_ready(line)
        self._write(line)

    def answer(self, command: str, timeout: float, move: bool = False) -> str:
        """The next answer line to ``command``, waiting at most ``timeout`` seconds.

        ``move`` says that ``command`` made the engine think (BEGIN, TURN, BOARD): it
        may then be deaf for a moment after answering, and the next :meth:`send` first
        waits until it reads commands again.
        """
        deadline = time.monotonic() + timeout
        while True:
            line = self._next_line(command, deadline)
            if line is None:
                raise EngineTimeoutError(
                    f"engine {self.name!r} did not answer {command!r} "
                    f"within {timeout:.2f} s"
                )
            if line == self._probe:
                continue  # a late answer to an ABOUT probe
            if _first_word(line) in ERROR_WORDS:
                raise EngineError(
                    f"engine {self.name!r} answered {command!r} with {line!r}"
                )
            if move:
                self._moved_at = time.monotonic()
            return line

    def ask(self, command: str, timeout: float, move: bool = False) -> str:
        """Send ``command`` and return its answer (see :meth:`answer`)."""
        self.send(command)
        return self.answer(command, timeout, move)

    def identify(self, timeout: float) -> str:
        """Ask ABOUT and keep the answer as :attr:`about` and, if it can, as the probe.

        An ERROR or UNKNOWN answer is kept too, not raised: the engine still plays,
        only without the ready probe (it gets a pause after each move instead).
        """
        self.send("ABOUT")
        line = self._next_line("ABOUT", time.monotonic() + timeout)
        if line is None:
            raise EngineTimeoutError(
                f"engine {self.name!r} did not answer 'ABOUT' within {timeout:.2f} s"
            )
        self.about = line
        usable = (
            _first_word(line) not in ERROR_WORDS
            and line.upper() != "OK"
            and not _POINT.fullmatch(line)
        )
        self._probe = line if usable else None
        return line

    def close(self) -> None:
        """End the engine (END, then kill its group after a short wait); idempotent."""
        self._finalizer()

    def kill(self) -> None:
        """End a misbehaving engine and its group at once, without waiting for END."""
        if self._finalizer.alive:
            _kill_group(self._process)
        self._finalizer()

    def _write(self, line: str) -> None:
        # Never blocks for long: between our commands the engine answers or is killed,
        # so what we write to it stays far below a pipe's buffer.
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (OSError, ValueError):
            raise EngineExitedError(self._exit_report(line)) from None

    def _next_line(self, command: str, deadline: float) -> str | None:
        """The next line that is not a note, or None at ``deadline``.

        Raises :class:`EngineExitedError` when the output ends, or when the engine has
        exited and writes nothing more (a process it left behind may hold the pipe open,
        so the end of the output alone cannot be relied on).
        """
        while True:
            wait = min(deadline - time.monotonic(), EXIT_POLL_S)
            try:
                line = self._answers.get(timeout=max(wait, 0))
            except queue.Empty:
                if self._process.poll() is not None:
                    try:
                        line = self._answers.get(timeout=EXIT_REPORT_WAIT_S)
                    except queue.Empty:
                        raise EngineExitedError(self._exit_report(command)) from None
                elif time.monotonic() >= deadline:
                    return None
                else:
                    continue
            if line is None:
                self._answers.put(None)
                raise EngineExitedError(self._exit_report(command))
            if _first_word(line) in NOTE_WORDS:
                self.messages.append(line)
            else:
                return line

    def _wait_until_ready(self, command: str) -> None:
        """Return once the engine reads commands again after its move (see the module)."""
        moved_at, self._moved_at = self._moved_at, None
        if self._probe is None:
            time.sleep(max(moved_at + SETTLE_S - time.monotonic(), 0))
            return
        deadline = time.monotonic() + self.ready_timeout
        while True:
            self._write("ABOUT")
            probe_deadline = min(time.monotonic() + PROBE_INTERVAL_S, deadline)
            line = self._next_line(command, probe_deadline)
            if line is not None and _first_word(line) not in ERROR_WORDS:
                return  # the ABOUT answer (an error means a mangled probe: try again)
            if time.monotonic() >= deadline:
                raise EngineTimeoutError(
                    f"engine {self.name!r} was not ready for {command!r}: it did not "
                    f"answer ABOUT within {self.ready_timeout:.2f} s after its move"
                )

    def _exit_report(self, command: str) -> str:
        """Why the engine stopped answering ``command``: exit code and stderr tail."""
        try:
            code = self._process.wait(timeout=EXIT_REPORT_WAIT_S)
            state = f"exited with code {code}"
            self._stderr_reader.join(timeout=EXIT_REPORT_WAIT_S)
        except subprocess.TimeoutExpired:
            state = "closed its output"
        report = f"engine {self.name!r} {state} while handling {command!r}"
        if self._stderr:
            report += "; its stderr ends with: " + " | ".join(self._stderr)
        return report
