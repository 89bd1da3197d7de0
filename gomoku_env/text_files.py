"""Reading a user's text file (a game record, an opening book, a ladder) by its name.

``Path.read_text`` reports bytes that are not UTF-8 as a bare ``UnicodeDecodeError``
("'utf-8' codec can't decode byte 0x89 in position 0") that names no file, and a
directory as an ``IsADirectoryError``. Here both are a ValueError (or the subclass the
caller names) that says which file, which line, and what kind of file was expected.
"""

from __future__ import annotations

import os
from pathlib import Path


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
