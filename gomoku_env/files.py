"""The files the package reads and writes, handled safely.

Writes are atomic: a reader sees the old file or the new one, never half of one. Every
file the package writes (game records, GIFs, training checkpoints, replay data,
metrics, arena records and reports, the Gomocup launcher) goes through
:func:`write_atomically`; :func:`write_text_atomically` and
:func:`write_bytes_atomically` cover the common cases.

Reading a user's text file (a game record, an opening book, a ladder) by its name:
``Path.read_text`` reports bytes that are not UTF-8 as a bare ``UnicodeDecodeError``
("'utf-8' codec can't decode byte 0x89 in position 0") that names no file, and a
directory as an ``IsADirectoryError``. Here both are a ValueError (or the subclass the
caller names) that says which file, which line, and what kind of file was expected.
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


def read_text_file(
    path: str | os.PathLike[str], kind: str, error: type[ValueError] = ValueError
) -> str:
    """The UTF-8 text of the file ``path``, which should be ``kind``.

    Raises:
        FileNotFoundError: there is no such file.
        ValueError: (``error``) ``path`` is a directory, or its bytes are not UTF-8
            text; the message names the file, the line of the first bad byte and
            ``kind`` ("a game record", "an opening file", ...).
    """
    path = Path(path)
    if path.is_dir():
        raise error(f"{path}: is a directory, not {kind}")
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as decode_error:
        line_number = data.count(b"\n", 0, decode_error.start) + 1
        raise error(
            f"{path}, line {line_number}: not UTF-8 text ({decode_error.reason} at "
            f"byte {decode_error.start}); is it {kind}?"
        ) from None
