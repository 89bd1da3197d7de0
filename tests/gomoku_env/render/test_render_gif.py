"""GIFs of games: one frame per position, written atomically."""

import os

import pytest
from PIL import Image

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
