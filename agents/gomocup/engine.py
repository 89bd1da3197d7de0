"""A Gomocup engine as a subprocess: send commands, read answers with timeouts.

A reader thread moves each line the engine writes into a queue, so waiting for an
answer can give up at a deadline however the engine misbehaves: a silent engine
raises :class:`EngineTimeoutError`, a dead one :class:`EngineExitedError` (with the end
of its stderr), and an ERROR or UNKNOWN answer :class:`EngineError`. MESSAGE and DEBUG
lines are collected, not mistaken for answers. :meth:`EngineProcess.close` ends the
process, and otherwise a finalizer does when the object is collected or Python exits.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import IO

END_WAIT_S = 0.5
"""Seconds an engine gets to exit after END before it is killed."""
EXIT_REPORT_WAIT_S = 0.5
"""Seconds to wait for an exit code after the engine closed its output."""
STDERR_LINES = 20
"""Lines of the engine's stderr kept for error reports."""
NOTE_WORDS = ("MESSAGE", "DEBUG", "SUGGEST")
"""Lines an engine may write at any time; they are collected, never taken as answers."""


class EngineError(RuntimeError):
    """An engine refused a command or answered something that is not an answer."""


class EngineTimeoutError(EngineError):
    """An engine did not answer within its time."""


class EngineExitedError(EngineError):
    """An engine process ended (or closed its output) while we were talking to it."""


def _read_lines(stream: IO[str], sink: queue.Queue[str | None]) -> None:
    """Put each non-blank line of ``stream`` in ``sink``, then None at end of stream."""
    try:
        for line in stream:
            if line.strip():
                sink.put(line.strip())
    except (OSError, ValueError):  # the stream was closed under us: treat as its end
        pass
    sink.put(None)


def _keep_tail(stream: IO[str], tail: deque[str]) -> None:
    """Keep the last lines of ``stream`` in ``tail`` until it ends."""
    try:
        for line in stream:
            tail.append(line.rstrip())
    except (OSError, ValueError):
        pass


def _stop(process: subprocess.Popen[str], threads: list[threading.Thread]) -> None:
    """Ask the engine to END, kill it if it does not, and release its pipes."""
    if process.poll() is None:
        try:
            process.stdin.write("END\n")
            process.stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            process.wait(timeout=END_WAIT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for thread in threads:
        thread.join(timeout=END_WAIT_S)
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.close()


class EngineProcess:
    """A running Gomocup engine.

    Args:
        command: the program and its arguments.
        messages: where MESSAGE/DEBUG lines go (a fresh bounded deque if not given).

    Raises:
        ValueError: the program cannot be started (missing, not executable).
    """

    def __init__(
        self, command: Sequence[str], messages: deque[str] | None = None
    ) -> None:
        self.command = list(command)
        self.name = Path(self.command[0]).name
        self.messages = messages if messages is not None else deque(maxlen=1000)
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
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

    def send(self, line: str) -> None:
        """Write one command line to the engine."""
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (OSError, ValueError):
            raise EngineExitedError(self._exit_report(line)) from None

    def answer(self, command: str, timeout: float) -> str:
        """The next answer line to ``command``, waiting at most ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._answers.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                raise EngineTimeoutError(
                    f"engine {self.name!r} did not answer {command!r} "
                    f"within {timeout:.2f} s"
                ) from None
            if line is None:
                self._answers.put(None)
                raise EngineExitedError(self._exit_report(command))
            word = line.split(" ", 1)[0].upper()
            if word in NOTE_WORDS:
                self.messages.append(line)
            elif word in ("ERROR", "UNKNOWN"):
                raise EngineError(
                    f"engine {self.name!r} answered {command!r} with {line!r}"
                )
            else:
                return line

    def ask(self, command: str, timeout: float) -> str:
        """Send ``command`` and return its answer (see :meth:`answer`)."""
        self.send(command)
        return self.answer(command, timeout)

    def close(self) -> None:
        """End the engine (END, then kill after a short wait); safe to call twice."""
        self._finalizer()

    def kill(self) -> None:
        """End a misbehaving engine at once, without waiting for END."""
        if self._finalizer.alive:
            self._process.kill()
        self._finalizer()

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
