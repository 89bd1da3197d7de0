"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

FILE_MODE = 0o644


def write_atomically(
    path: str | os.PathLike[str], write: Callable[[Path], None]
) -> Path:
    """Call ``write(temporary_path)``, then rename the temporary file onto ``path``.

    The temporary file lives in the same directory, so the rename is atomic; it is
    removed if ``write`` fails, leaving any existing ``path`` untouched.
    """
    path = Path(path)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"directory {str(path.parent)!r} does not exist")
    handle, name = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
    )
    os.close(handle)
    temporary = Path(name)
    try:
        write(temporary)
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path
