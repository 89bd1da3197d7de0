"""Reading what an engine writes, in bounded memory whatever it writes.

Two reader threads take in an engine's stdout and stderr as it comes, so waiting for
an answer can give up at a deadline. Everything they keep is bounded, because an
engine may write at any time, also while nobody is asking it anything (while its
opponent thinks): each line is cut to :data:`LINE_LIMIT` characters; MESSAGE, DEBUG
and SUGGEST lines (notes) go straight into a bounded deque, the oldest dropped first;
other lines (answers) wait in a queue of at most :data:`ANSWER_BACKLOG` lines, and
an answer that finds it full is dropped (a protocol engine writes one answer per
command, so only an engine writing lines nobody asked for loses any); the stderr
keeps its last :data:`STDERR_LINES` lines for error reports.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections import deque
from collections.abc import Iterator
from typing import IO

LINE_LIMIT = 4096
"""Characters of an engine's output line kept; the rest of a longer line is read and
dropped, so an engine that writes an endless line without a newline cannot grow the
arena's memory (it grew to 1.5 GB in 3 seconds)."""
NOTES_KEPT = 1000
"""Notes kept when the caller gives no deque of its own (the newest)."""
ANSWER_BACKLOG = 64
"""Answer lines kept unread; further ones are dropped until some are read."""
STDERR_LINES = 20
"""Lines of the engine's stderr kept for error reports."""
NOTE_WORDS = ("MESSAGE", "DEBUG", "SUGGEST")
"""Lines an engine may write at any time; they are collected, never taken as answers."""


def first_word(line: str) -> str:
    """The first word of an engine's line, in capitals."""
    return line.split(" ", 1)[0].upper()


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


class EngineOutput:
    """The answers, notes and stderr tail of one engine, read by two daemon threads.

    Args:
        stdout: the engine's output; :meth:`next_answer` returns its answers in order.
        stderr: the engine's error output; its last lines are in :attr:`stderr_tail`.
        notes: where notes go; it must be bounded (a ``deque`` with ``maxlen``).

    Raises:
        ValueError: ``notes`` has no ``maxlen``.

    Each thread closes its own pipe when it reaches the end, so nothing waits on a
    pipe that some stray process of the engine still holds.
    """

    def __init__(
        self, stdout: IO[str], stderr: IO[str], notes: deque[str] | None = None
    ) -> None:
        if notes is None:
            notes = deque(maxlen=NOTES_KEPT)
        if notes.maxlen is None:
            raise ValueError("an engine's notes need a bounded deque (maxlen=None)")
        self.notes = notes
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)
        self._answers: queue.Queue[str | None] = queue.Queue(ANSWER_BACKLOG + 1)
        self.threads = [
            threading.Thread(target=self._read_answers, args=(stdout,), daemon=True),
            threading.Thread(target=self._keep_tail, args=(stderr,), daemon=True),
        ]
        for thread in self.threads:
            thread.start()

    def next_answer(self, timeout: float) -> str | None:
        """The next answer line, None if none comes within ``timeout`` seconds.

        Raises:
            EOFError: the output has ended (and every answer before it was read).
        """
        try:
            line = self._answers.get(timeout=max(timeout, 0))
        except queue.Empty:
            return None
        if line is None:
            self._answers.put(None)  # the end stays the end for later calls
            raise EOFError
        return line

    def wait_for_stderr(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the engine's stderr to end."""
        self.threads[1].join(timeout=timeout)

    def _read_answers(self, stream: IO[str]) -> None:
        try:
            for line in bounded_lines(stream):
                line = line.strip()
                if not line:
                    continue
                if first_word(line) in NOTE_WORDS:
                    self.notes.append(line)
                elif self._answers.qsize() < ANSWER_BACKLOG:
                    self._answers.put(line)
        except (OSError, ValueError):  # the stream was closed under us: its end
            pass
        self._answers.put(None)  # one place is always left for the end
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def _keep_tail(self, stream: IO[str]) -> None:
        try:
            for line in bounded_lines(stream):
                self.stderr_tail.append(line.rstrip())
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError, ValueError):
            stream.close()
