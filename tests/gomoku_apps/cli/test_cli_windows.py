"""`gomoku play` and `gomoku replay` from the command line, for a few frames each."""

import pytest

from gomoku_apps.cli.main import main
from gomoku_apps.gui.window_app import WindowApp
from gomoku_env import Board, GameConfig
from gomoku_env.records import GameRecord


@pytest.fixture(autouse=True)
def short_runs(monkeypatch):
    original = WindowApp.run
    monkeypatch.setattr(WindowApp, "run", lambda self: original(self, max_frames=20))


def test_play_runs_agents_against_each_other(capsys):
    arguments = ["play", "--black", "random", "--white", "random", "--size", "5"]
    assert main([*arguments, "--delay", "0", "--fps", "1000", "--seed", "1"]) == 0
    assert "(random)" in capsys.readouterr().out


def test_play_rejects_unknown_agents_and_bad_boards(capsys):
    assert main(["play", "--white", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert main(["play", "--size", "3"]) == 2
    assert "board_size must be between 5 and 25, got 3" in capsys.readouterr().err


def test_replay_opens_a_record(tmp_path):
    path = GameRecord.from_board(Board.from_moves([12, 13], GameConfig(5))).save(
        tmp_path / "game.txt"
    )
    assert main(["replay", str(path), "--start", "2", "--fps", "1000"]) == 0
    assert main(["replay", str(path), "--start", "9"]) == 2
