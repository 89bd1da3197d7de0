"""``gomoku gif RECORD``: a record drawn as an animated GIF, or a clear error."""

import os

import pytest
from PIL import Image

from gomoku_apps.cli.main import main
from gomoku_env import Board, GameConfig
from gomoku_env.records import GameRecord

MOVES = [12, 13, 7, 8, 2, 3, 17, 18, 22]  # 5×5 win_length 5: black wins column c


def test_gif_command_writes_the_file(tmp_path, capsys):
    record_path = GameRecord.from_board(
        Board.from_moves(MOVES, GameConfig(5, 5)), "a", "b"
    ).save(tmp_path / "game.txt")
    output = tmp_path / "game.gif"
    assert main(["gif", str(record_path), "-o", str(output), "--cell-size", "20"]) == 0
    with Image.open(output) as image:
        assert image.n_frames == len(MOVES) + 1
    assert f"{output} ({len(MOVES) + 1} frames)" in capsys.readouterr().out


def test_gif_command_reports_a_malformed_record(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("Rule: freestyle\nSize: 5\n")
    assert main(["gif", str(bad), "-o", str(tmp_path / "x.gif")]) == 2
    assert "bad.txt, line 2: missing header 'WinLength'" in capsys.readouterr().err
    assert not (tmp_path / "x.gif").exists()


def test_gif_replay_and_arena_name_a_binary_file(tmp_path, capsys):
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
    for command in (
        ["gif", str(binary), "-o", str(tmp_path / "x.gif")],
        ["replay", str(binary)],
    ):
        assert main(command) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"gomoku: error: {binary}, line 1: not UTF-8 text")
        assert "is it a game record?" in error and "codec" not in error
    arguments = ["arena", "random", "random", "--openings", str(binary), "--games", "2"]
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert f"{binary}, line 1: not UTF-8 text" in error and "codec" not in error


def _not_regular_files(tmp_path):
    device = tmp_path / "device.txt"
    device.symlink_to("/dev/zero")
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    return {device: "not a regular file", fifo: "not a regular file", loop: "loop"}


def test_gif_and_replay_refuse_devices_fifos_and_loops_in_one_line(tmp_path, capsys):
    for path, reason in _not_regular_files(tmp_path).items():
        for command in (
            ["gif", str(path), "-o", str(tmp_path / "x.gif")],
            ["replay", str(path)],
        ):
            assert main(command) == 2
            error = capsys.readouterr().err
            assert error.startswith(f"gomoku: error: {path}") and reason in error
            assert error.count("\n") == 1


def test_gif_refuses_a_record_with_a_50_kb_name_at_once(tmp_path, capsys):
    text = GameRecord.from_board(Board(GameConfig(5, 5)), "a", "b").to_text()
    path = tmp_path / "long.txt"
    path.write_text(text.replace("Black: a", "Black: " + "n" * 50_000))
    assert main(["gif", str(path), "-o", str(tmp_path / "x.gif")]) == 2
    assert "header 'Black' is 50000 characters long" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["fifo", "symlink", "directory"])
def test_an_output_that_is_no_regular_file_is_refused_before_drawing(
    tmp_path, capsys, kind
):
    """gomoku gif -o replaced a FIFO, a device or a symlink with a regular file (as
    root, /dev/full); a folder there failed only after every frame was drawn."""

    record = GameRecord.from_board(Board.from_moves([40, 41, 42], GameConfig(9)))
    game = tmp_path / "game.txt"
    record.save(game)
    target = tmp_path / "out.gif"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (tmp_path / "kept.gif").write_text("keep me")
        target.symlink_to(tmp_path / "kept.gif")
    else:
        target.mkdir()
    assert main(["gif", str(game), "-o", str(target)]) == 2
    assert f"is a {kind if kind != 'fifo' else 'FIFO'}" in capsys.readouterr().err
    if kind == "symlink":
        assert (tmp_path / "kept.gif").read_text() == "keep me"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--frame-ms", "655360"], "frame_ms must be an int from 20 to 60000"),
        (["--cell-size", "64"], "GiB of frames while it is written"),
    ],
)
def test_a_gif_that_would_overflow_or_outgrow_memory_is_refused_first(
    tmp_path, capsys, options, message
):
    """A full 25x25 record at 64 pixels a cell took 226 s and 4 GB; a frame time of
    655360 ms ended in an OverflowError traceback."""
    config = GameConfig(25)
    record = GameRecord.from_board(Board.from_moves(drawn_fill(config), config))
    game = tmp_path / "full.txt"
    record.save(game)
    assert len(record.moves) == 625 and record.result == "draw"
    assert main(["gif", str(game), "-o", str(tmp_path / "out.gif"), *options]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out.gif").exists()


def drawn_fill(config: GameConfig) -> list[int]:
    """Moves that fill the board without a five in a row: a cell's colour flips with
    every row and every second column, so no line holds more than two of a colour
    in a row; black and white moves interleaved."""
    size = config.board_size
    colour = {
        row * size + col: (col // 2 + row) % 2
        for row in range(size)
        for col in range(size)
    }
    black = [cell for cell, c in colour.items() if c == 0]
    white = [cell for cell, c in colour.items() if c == 1]
    moves = []
    for index in range(max(len(black), len(white))):
        moves += black[index : index + 1] + white[index : index + 1]
    return moves
