"""GIFs of games: one frame per position, written atomically."""

import os

import pytest
from PIL import Image

from gomoku_env import Board, GameConfig
from gomoku_env.records import GameRecord
from gomoku_env.render import RenderOptions, game_frames, save_gif
from gomoku_env.render.gif import final_caption

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


def test_every_frame_names_the_players_above_the_board():
    options = RenderOptions(cell_size=30)
    record = GameRecord.from_board(
        Board.from_moves([40, 41, 30], GameConfig(9)), "alphabeta:time=0.3", "heuristic"
    )
    frames = list(game_frames(record, options))
    geometry = options.geometry(9)
    legend_rows = frames[0].shape[0] - geometry.image_size[1]
    assert legend_rows == geometry.caption_height
    legend = frames[0][:legend_rows]
    assert all((frame[:legend_rows] == legend).all() for frame in frames)
    colours = {tuple(pixel) for pixel in legend.reshape(-1, 3)}
    theme = options.theme
    assert {theme.black_stone, theme.white_stone, theme.caption_text} <= colours
    other = GameRecord.from_board(record.board(), "random", "heuristic")
    assert not (next(game_frames(other, options))[:legend_rows] == legend).all()


def test_the_last_frame_tells_the_result_in_the_play_window_words():
    assert final_caption(small_record()) == (
        "Black (random) wins by five in a row after 9 moves"
    )
    resigned = GameRecord.from_board(
        Board.from_moves([12, 13], GameConfig(5, 5)), "me", "you", "black", "resign"
    )
    assert final_caption(resigned) == "Black (me) wins by resignation after 2 moves"
    unfinished = GameRecord.from_board(
        Board.from_moves([12], GameConfig(5, 5)), "a", "b"
    )
    assert final_caption(unfinished) is None
