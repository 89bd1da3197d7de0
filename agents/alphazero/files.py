"""Atomic file writes: a temporary file in the same folder, then ``os.replace``.

A run killed mid-write leaves the previous version of the file whole, never half of a
new one; everything training writes (weights, checkpoints, replay data, metrics, plots)
goes through :func:`atomic_write`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

FILE_MODE = 0o644


def atomic_write(
    path: str | os.PathLike[str], write: Callable[[BinaryIO], None]
) -> None:
    """Call ``write(stream)`` on a temporary file beside ``path``, then move it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        # mkstemp creates the file private (0600); written files are ordinary ones.
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
