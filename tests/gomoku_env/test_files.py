"""The one atomic writer (whole files or none, modes, missing folders) and the one
reader (regular files only, size-capped, never blocking on a FIFO)."""

from __future__ import annotations

import os
import stat

import pytest

from gomoku_env.files import (
    check_regular_file,
    read_file_bytes,
    read_text_file,
    write_atomically,
    write_bytes_atomically,
    write_text_atomically,
)


def test_text_and_bytes_replace_the_file_whole(tmp_path):
    path = tmp_path / "notes.txt"
    write_text_atomically(path, "first")
    assert write_text_atomically(path, "second é") == path
    assert path.read_text(encoding="utf-8") == "second é"
    write_bytes_atomically(path, b"\x00\x01")
    assert path.read_bytes() == b"\x00\x01"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "kept.txt"
    path.write_text("old")

    def half_write(temporary):
        temporary.write_text("half")
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError, match="killed"):
        write_atomically(path, half_write)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


def test_mode_sets_the_permission_bits(tmp_path):
    plain = write_text_atomically(tmp_path / "plain", "x")
    script = write_text_atomically(tmp_path / "script", "x", mode=0o755)
    assert stat.S_IMODE(plain.stat().st_mode) == 0o644
    assert stat.S_IMODE(script.stat().st_mode) == 0o755


def test_missing_folder_is_an_error_unless_created(tmp_path):
    path = tmp_path / "a" / "b" / "file.bin"
    with pytest.raises(FileNotFoundError, match="does not exist"):
        write_bytes_atomically(path, b"x")
    write_bytes_atomically(path, b"x", create_parents=True)
    assert path.read_bytes() == b"x"


def test_a_device_behind_a_symlink_is_refused_without_reading_it(tmp_path):
    link = tmp_path / "game.txt"
    link.symlink_to("/dev/zero")
    with pytest.raises(ValueError, match=r"game\.txt: is not a regular file"):
        read_text_file(link, "a game record")


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"pipe\.txt: is not a regular file"):
        read_file_bytes(fifo, "an opening file", 100)
    with pytest.raises(ValueError, match="not a regular file"):
        check_regular_file(fifo, "weights", 100)


def test_a_symlink_loop_is_one_clear_error(tmp_path):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(ValueError, match=r"loop: cannot be read \(a symlink loop\)"):
        read_text_file(loop, "a game record")


def test_a_file_over_the_cap_is_refused_and_at_the_cap_is_read(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 11)
    with pytest.raises(ValueError, match="11 bytes is too large for a ladder"):
        read_file_bytes(path, "a ladder", 10)
    assert read_file_bytes(path, "a ladder", 11) == b"x" * 11
    assert check_regular_file(path, "a ladder", 11) == path


def test_missing_files_and_folders_keep_their_kinds_of_error(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nothing\.txt"):
        read_text_file(tmp_path / "nothing.txt", "a game record")
    with pytest.raises(ValueError, match="is a directory, not a game record"):
        read_text_file(tmp_path, "a game record")
