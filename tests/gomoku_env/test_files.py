"""The one atomic writer: whole files or none, modes, missing folders."""

from __future__ import annotations

import stat

import pytest

from gomoku_env.files import (
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
