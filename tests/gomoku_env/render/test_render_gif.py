"""GIFs of games: one frame per position, written atomically, also from the command."""

import os

import pytest
from PIL import Image

from gomoku_apps.cli.main import main
from gomoku_env import Board, GameConfig
from gomoku_env.records import GameRecord
from gomoku_env.render import RenderOptions, game_frames, save_gif

MOVES = [12, 13, 7, 8, 2, 3, 17, 18, 22]  # 5×5 win_length 5: black wins column c


def small_record():
    board = Board.from_moves(MOVES, GameConfig(5, 5))
    return GameRecord.from_board(board, "random", "random")


def test_gif_has_one_frame_per_move_plus_the_empty_board(tmp_path):
    record = small_record()
    path = save_gif(record, tmp_path / "game.gif", frame_ms=100, final_ms=900)
    with Image.open(path) as image:
        assert image.n_frames == len(record.moves) + 1
        image.seek(image.n_frames - 1)
        assert image.info["duration"] == 900
    assert sorted(os.listdir(tmp_path)) == ["game.gif"]


def test_frames_start_empty_and_end_with_the_game():
    record = small_record()
    frames = list(game_frames(record, RenderOptions(cell_size=20)))
    assert len(frames) == len(record.moves) + 1
    assert all(frame.shape == frames[0].shape for frame in frames)
    assert not (frames[0] == frames[-1]).all()


def test_bad_frame_time_is_rejected(tmp_path):
    with pytest.raises(ValueError, match=r"frame_ms .* got 0"):
        save_gif(small_record(), tmp_path / "game.gif", frame_ms=0)


def test_gif_command_writes_the_file(tmp_path, capsys):
    record_path = small_record().save(tmp_path / "game.txt")
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
