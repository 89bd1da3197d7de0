"""A Gomocup engine as a subprocess: send commands, read answers with timeouts.

Reader threads (:mod:`agents.gomocup.output`) take in each line the engine writes, in
bounded memory, so waiting for an answer can give up at a deadline however the engine
misbehaves: a silent engine raises :class:`EngineTimeoutError`, a dead one
:class:`EngineExitedError` (with the end of its stderr), and an ERROR or UNKNOWN answer
:class:`EngineError`. MESSAGE, DEBUG and SUGGEST lines are collected as notes, not
mistaken for answers.

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

**Stopping never blocks, and leaves nothing behind.** :meth:`EngineProcess.close`
sends END, waits a moment for the engine to exit, then kills it with everything it
started, also what left its process group or session (see :mod:`agents.gomocup.stopping`);
every wait has a time limit. A finalizer does the same when the object is collected or
Python exits.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import weakref
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from agents.gomocup.errors import (
    EngineError,
    EngineExitedError,
    EngineIllegalMoveError,
    EngineTimeoutError,
)
from agents.gomocup.output import (
    LINE_LIMIT,
    EngineOutput,
    bounded_lines,
    first_word,
)
from agents.gomocup.stopping import (
    kill_engine,
    launch_command,
    start_engine,
    stop_engine,
)
from gomoku_env.fields import quoted

__all__ = [
    "LINE_LIMIT",
    "EngineError",
    "EngineExitedError",
    "EngineIllegalMoveError",
    "EngineProcess",
    "EngineTimeoutError",
    "bounded_lines",
]

EXIT_REPORT_WAIT_S = 0.5
"""Seconds to wait for an exit code, and for the last output of an engine that exited."""
EXIT_POLL_S = 0.1
"""While waiting for an answer, how often to check whether the engine has exited."""
PROBE_INTERVAL_S = 0.05
"""Seconds between ABOUT probes while waiting for an engine to be ready after a move."""
SETTLE_S = 0.05
"""Pause after a move for engines whose ABOUT answer cannot serve as a probe."""
ERROR_WORDS = ("ERROR", "UNKNOWN")
"""The first words of an engine's refusal."""

_POINT = re.compile(r"\s*[+-]?\d+\s*,\s*[+-]?\d+\s*")


class EngineProcess:
    """A running Gomocup engine.

    Args:
        command: the program and its arguments.
        messages: where MESSAGE/DEBUG/SUGGEST lines go: a deque with a maxlen
            (a fresh one of 1000 if not given).
        ready_timeout: seconds an engine may take after a move to read commands again.

    Raises:
        ValueError: the program cannot be started (missing, not executable), or
            ``messages`` is unbounded.
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
        if self.messages.maxlen is None:
            raise ValueError("an engine's messages need a bounded deque (maxlen=None)")
        self.ready_timeout = ready_timeout
        self.about: str | None = None
        """The engine's ABOUT answer, once :meth:`identify` has asked for it."""
        self._probe: str | None = None
        self._moved_at: float | None = None
        program = shutil.which(self.command[0])
        if program is None:
            raise ValueError(
                f"cannot run engine {quoted(self.command[0])}: no such program, or it is "
                "not an executable file"
            )
        try:
            self._process = start_engine(launch_command(program, self.command[1:]))
        except OSError as error:
            reason = error.strerror or str(error)
            raise ValueError(
                f"cannot run engine {quoted(self.command[0])}: {reason}"
            ) from None
        self._output = EngineOutput(
            self._process.stdout, self._process.stderr, self.messages
        )
        self._finalizer = weakref.finalize(
            self, stop_engine, self._process, self._output.threads
        )

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
            if first_word(line) in ERROR_WORDS:
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
            first_word(line) not in ERROR_WORDS
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
            kill_engine(self._process)
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
            try:
                line = self._output.next_answer(
                    min(deadline - time.monotonic(), EXIT_POLL_S)
                )
                if line is None and self._process.poll() is not None:
                    line = self._output.next_answer(EXIT_REPORT_WAIT_S)
                    if line is None:
                        raise EngineExitedError(self._exit_report(command))
            except EOFError:
                raise EngineExitedError(self._exit_report(command)) from None
            if line is not None:
                return line
            if time.monotonic() >= deadline:
                return None

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
            if line is not None and first_word(line) not in ERROR_WORDS:
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
            self._output.wait_for_stderr(EXIT_REPORT_WAIT_S)
        except subprocess.TimeoutExpired:
            state = "closed its output"
        report = f"engine {self.name!r} {state} while handling {command!r}"
        if self._output.stderr_tail:
            tail = " | ".join(self._output.stderr_tail)
            report += "; its stderr ends with: " + tail
        return report
