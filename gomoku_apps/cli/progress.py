"""A one-line progress bar on stderr for commands that play many games."""

from __future__ import annotations

import sys
import time
from typing import TextIO

_WIDTH = 30


class ProgressBar:
    """Redraws ``[#####.....] done/total games, elapsed, remaining`` in place.

    Draws only on a terminal (or when ``force``), so logs and pipes stay clean.
    """

    def __init__(
        self, label: str, stream: TextIO | None = None, force: bool = False
    ) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = force or self.stream.isatty()
        self.start = time.monotonic()

    def __call__(self, result: object, done: int, total: int) -> None:
        """The arena's ``on_result`` callback."""
        if not self.enabled or total == 0:
            return
        elapsed = time.monotonic() - self.start
        filled = round(_WIDTH * done / total)
        remaining = elapsed / done * (total - done)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (_WIDTH - filled)}] "
            f"{done}/{total} games, {elapsed:.0f}s elapsed, ~{remaining:.0f}s left "
        )
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
