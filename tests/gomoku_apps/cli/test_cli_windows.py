"""`gomoku play` and `gomoku replay` from the command line, for a few frames each."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gomoku_apps.cli.main import main
from gomoku_apps.gui.window_app import WindowApp
from gomoku_env import Board, GameConfig
from gomoku_env.records import GameRecord

ROOT = Path(__file__).resolve().parents[3]


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


QUIT_WHILE_THINKING = """
import sys, time
from gomoku_apps.cli.main import main
from gomoku_apps.gui.window_app import WindowApp

def run_until_thinking(self):
    while self.frame() and not (self.thinker.busy and len(self.session.board.moves) >= 2):
        pass
    time.sleep(1)  # into the search

WindowApp.run = run_until_thinking
agent = "python:tests/gomoku_apps/rogue_agents.py:SlowAlphaZero"
sys.exit(main(["play", "--black", agent, "--white", agent, "--size", "9",
               "--delay", "0", "--fps", "1000"]))
"""


def test_quitting_while_an_alphazero_agent_thinks_exits_cleanly():
    """Torch threads torn down under a running search used to abort (exit 134)."""
    finished = subprocess.run(
        [sys.executable, "-c", QUIT_WHILE_THINKING],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert "terminate called" not in finished.stderr
    assert finished.returncode == 0, finished.stderr
    assert "to move" in finished.stdout or "thinking" in finished.stdout


@pytest.mark.parametrize("verb", [["play"], ["replay", "game.txt"]])
def test_without_a_display_the_window_verbs_say_what_to_do(verb, monkeypatch, capsys):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(verb) == 2
    error = capsys.readouterr().err
    assert "has no display" in error and "gomoku serve --open" in error
    assert len(error.strip().splitlines()) == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 displays")
@pytest.mark.parametrize("verb", [["play"], ["replay", "game.txt"]])
def test_a_display_that_cannot_be_opened_is_named_not_run_invisibly(verb, tmp_path):
    """A stale DISPLAY made SDL fall back to its offscreen driver: the program ran
    unseen until killed. Now it says so and exits 2."""
    record = GameRecord(GameConfig(board_size=9), (40, 41))
    record.save(tmp_path / "game.txt")
    environment = {
        key: value for key, value in os.environ.items() if key != "SDL_VIDEODRIVER"
    }
    environment.update(DISPLAY=":55", SDL_AUDIODRIVER="dummy")
    environment.pop("WAYLAND_DISPLAY", None)
    finished = subprocess.run(
        [sys.executable, "-m", "gomoku_apps.cli.main", *verb],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
        timeout=120,
    )
    errors = [line for line in finished.stderr.splitlines() if "gomoku:" in line]
    assert finished.returncode == 2, finished.stderr
    assert len(errors) == 1 and "DISPLAY=:55" in errors[0]
    assert "invisible 'offscreen' driver" in errors[0]
