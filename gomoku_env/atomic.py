"""Atomic file writes: a reader sees the old file or the new one, never half of one.

Every file the package writes (game records, GIFs, training checkpoints, replay data,
metrics, arena records and reports, the Gomocup launcher) goes through
:func:`write_atomically`; :func:`write_text_atomically` and
:func:`write_bytes_atomically` cover the common cases.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

FILE_MODE = 0o644
"""Mode of written files: mkstemp creates them private (0600); ours are ordinary ones."""


def write_atomically(
    path: str | os.PathLike[str],
    write: Callable[[Path], None],
    *,
    mode: int = FILE_MODE,
    create_parents: bool = False,
) -> Path:
    """Call ``write(temporary_path)``, then rename the temporary file onto ``path``.

    The temporary file lives in the same directory, so the rename is atomic; it is
    removed if ``write`` fails, leaving any existing ``path`` untouched. The file gets
    permission bits ``mode``. A missing directory is an error unless
    ``create_parents``.
    """
    path = Path(path)
    if create_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"directory {str(path.parent)!r} does not exist")
    handle, name = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
    )
    os.close(handle)
    temporary = Path(name)
    try:
        write(temporary)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


def write_text_atomically(
    path: str | os.PathLike[str],
    text: str,
    *,
    mode: int = FILE_MODE,
    create_parents: bool = False,
) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; see :func:`write_atomically`."""
    return write_atomically(
        path,
        lambda temporary: temporary.write_text(text, "utf-8"),
        mode=mode,
        create_parents=create_parents,
    )


def write_bytes_atomically(
    path: str | os.PathLike[str], data: bytes, *, create_parents: bool = False
) -> Path:
    """Write ``data`` to ``path`` atomically; see :func:`write_atomically`."""
    return write_atomically(
        path,
        lambda temporary: temporary.write_bytes(data),
        create_parents=create_parents,
    )
