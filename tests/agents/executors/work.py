"""Work functions for the executor tests: module-level, so every worker imports them."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass


def square(number: int) -> int:
    return number * number


def slow_square(number: int) -> int:
    """A square that takes a moment, so a test can act while items are in flight."""
    time.sleep(0.2)
    return number * number


def refuse_negative(number: int) -> int:
    if number < 0:
        raise ValueError(f"negative: {number}")
    return number


def thread_share(number: int) -> str | None:
    """The CPU share the worker was started with."""
    return os.environ.get("OMP_NUM_THREADS")


def exit_process(number: int) -> int:
    os._exit(3)


@dataclass(frozen=True)
class DieOnce:
    """Squares its number; the first item to reach ``marker``'s absence ends its worker."""

    marker: str

    def __call__(self, number: int) -> int:
        try:
            with open(self.marker, "x"):
                pass
        except FileExistsError:
            return number * number
        os._exit(3)


@dataclass(frozen=True)
class ReadShared:
    """Adds the published value to each item (the worker reads it with get())."""

    shared: object

    def __call__(self, number: int) -> int:
        return number + self.shared.get()
