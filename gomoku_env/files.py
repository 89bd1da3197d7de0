"""The files the package reads and writes, handled safely.

Writes are atomic: a reader sees the old file or the new one, never half of one. Every
file the package writes (game records, GIFs, training checkpoints, replay data,
metrics, arena records and reports, the Gomocup launcher) goes through
:func:`write_atomically`; :func:`write_text_atomically` and
:func:`write_bytes_atomically` cover the common cases.

Every file the package reads by a name it was given (game records, opening books,
ladders, training manifests and metrics, replay data, weights) goes through
:func:`read_file_bytes` or :func:`read_text_file`, or is checked by
:func:`check_regular_file` just before a library opens it. A name can point anywhere:
at a device such as ``/dev/zero`` (endless bytes), a FIFO (a read that blocks for
ever), a directory or a symlink loop. Those are refused with one line naming the path,
and every read is capped at a size chosen per kind of file, so no file makes the
program grow without bound. Bytes that are not UTF-8 are a ValueError naming the file
and the line, not a bare ``UnicodeDecodeError``.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

FILE_MODE = 0o644
"""Mode of written files: mkstemp creates them private (0600); ours are ordinary ones."""

TEXT_LIMIT = 16 * 1024 * 1024
"""Bytes of a text file read at most (records, openings, ladders, manifests, metrics)."""

WEIGHTS_LIMIT = 2 * 1024 * 1024 * 1024
"""Bytes of a weights file or a checkpoint loaded at most."""

REPLAY_LIMIT = 16 * 1024 * 1024 * 1024
"""Bytes of a saved replay buffer loaded at most."""


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
    check_replaceable(path)
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


def check_replaceable(path: str | os.PathLike[str]) -> Path:
    """``path`` if nothing or a regular file is there, which an atomic write may
    replace; a ValueError for a symlink, a directory, a FIFO or a device, which the
    rename would replace (a writer calls this before its work, too, so that a bad
    target is refused before the work is done, not after)."""
    path = Path(path)
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return path
    if not stat.S_ISREG(mode):
        kind = (
            "a symlink" if stat.S_ISLNK(mode)
            else "a directory" if stat.S_ISDIR(mode)
            else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device or socket"
        )  # fmt: skip
        raise ValueError(
            f"{str(path)!r} is {kind}, not a regular file: nothing is written over it"
        )
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


def _open_regular_file(
    path: Path, kind: str, limit: int, error: type[ValueError]
) -> int:
    """A read-only descriptor of ``path``, which must be a regular file of at most
    ``limit`` bytes (the caller closes it).

    Opened with ``O_NONBLOCK`` so that a FIFO without a writer is refused instead of
    blocking the open, and checked with ``fstat`` on the opened file itself, so a
    symlink swapped in between a check and the open cannot slip a device through.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file (expected {kind})") from None
    except OSError as open_error:
        if open_error.errno == errno.ELOOP:
            reason = "a symlink loop"
        else:
            reason = open_error.strerror or type(open_error).__name__
        raise error(f"{path}: cannot be read ({reason}); expected {kind}") from None
    status = os.fstat(descriptor)
    mode, size = status.st_mode, status.st_size
    if stat.S_ISREG(mode) and size <= limit:
        return descriptor
    os.close(descriptor)
    if stat.S_ISDIR(mode):
        raise error(f"{path}: is a directory, not {kind}")
    if not stat.S_ISREG(mode):
        raise error(
            f"{path}: is not a regular file (a device, FIFO or socket), not {kind}"
        )
    raise error(f"{path}: {size} bytes is too large for {kind} (at most {limit})")


def check_regular_file(
    path: str | os.PathLike[str],
    kind: str,
    limit: int,
    error: type[ValueError] = ValueError,
) -> Path:
    """``path`` if it is a regular file of at most ``limit`` bytes, for a library that
    opens the file itself (``np.load``); otherwise the error of :func:`read_file_bytes`.
    """
    path = Path(path)
    os.close(_open_regular_file(path, kind, limit, error))
    return path


def read_file_bytes(
    path: str | os.PathLike[str],
    kind: str,
    limit: int,
    error: type[ValueError] = ValueError,
) -> bytes:
    """The bytes of the regular file ``path``, which should be ``kind``.

    At most ``limit + 1`` bytes are ever read, even from a file that grows while it is
    read.

    Raises:
        FileNotFoundError: there is no such file.
        ValueError: (``error``) ``path`` is a directory, a device, a FIFO, a socket, a
            symlink loop, unreadable, or longer than ``limit`` bytes; the message names
            the path, the reason and ``kind``.
    """
    path = Path(path)
    descriptor = _open_regular_file(path, kind, limit, error)
    with os.fdopen(descriptor, "rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise error(f"{path}: more than {limit} bytes is too large for {kind}")
    return data


def read_text_file(
    path: str | os.PathLike[str],
    kind: str,
    error: type[ValueError] = ValueError,
    limit: int = TEXT_LIMIT,
) -> str:
    """The UTF-8 text of the file ``path``, which should be ``kind``.

    Raises:
        FileNotFoundError: there is no such file.
        ValueError: (``error``) anything :func:`read_file_bytes` refuses, or bytes
            that are not UTF-8 text; the message names the file, the line of the
            first bad byte and ``kind`` ("a game record", "an opening file", ...).
    """
    path = Path(path)
    data = read_file_bytes(path, kind, limit, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as decode_error:
        line_number = data.count(b"\n", 0, decode_error.start) + 1
        raise error(
            f"{path}, line {line_number}: not UTF-8 text ({decode_error.reason} at "
            f"byte {decode_error.start}); is it {kind}?"
        ) from None


INFLATION_RATIO = 4
INFLATION_FLOOR = 64 * 1024 * 1024
"""A weights archive may unpack to at most ``INFLATION_RATIO`` times its size, or to
``INFLATION_FLOOR`` bytes if that is more: ``torch.save`` stores its members
uncompressed (a ratio near 1), so a file that inflates far beyond its size is a
compression bomb, refused before it is read."""


def check_inflated_size(
    path: Path, what: str, error: type[Exception] = ValueError
) -> None:
    """Refuse a zip archive (torch's file format) whose members would unpack to more
    than :data:`INFLATION_RATIO` times the file's size (at least
    :data:`INFLATION_FLOOR`): the file-size cap bounds the file, not what a compressed
    file inflates to. A file that is no zip archive is left to its reader."""
    if not zipfile.is_zipfile(path):
        return
    try:
        with zipfile.ZipFile(path) as archive:
            total = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, OSError) as failure:
        raise error(f"{str(path)!r} is not a readable {what}: {failure}") from None
    limit = max(INFLATION_FLOOR, INFLATION_RATIO * path.stat().st_size)
    if total > limit:
        raise error(
            f"{str(path)!r} would unpack to {total:,} bytes from "
            f"{path.stat().st_size:,}, over the limit of {limit:,} for {what} "
            "(a compressed file that inflates this much is refused unread)"
        )
