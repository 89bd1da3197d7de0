"""External engines in the arena: their failures are forfeits, scored by what went wrong.

An engine's illegal move is an ``illegal_move`` forfeit and its silence a ``timeout``,
not a ``crash``; an engine that cannot even start (it exits at START) forfeits each
game with its exit code and stderr as the detail, and the command line prints a report
or a one-line error, never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from gomoku_apps.arena import Arena
from gomoku_apps.cli.main import main
from gomoku_env import GameConfig

pytestmark = pytest.mark.skipif(os.name != "posix", reason="engines as sh scripts")

CONFIG = GameConfig(board_size=9)
FAKE_ENGINE = Path(__file__).parents[2] / "agents" / "gomocup" / "fake_engine.py"


@pytest.fixture
def engine(tmp_path):
    """``engine(mode)``: the spec of the fake engine in that mode (see fake_engine)."""

    def spec(mode: str, options: str = "time=2") -> str:
        script = tmp_path / f"pbrain-{mode}"
        script.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE_ENGINE} {mode}\n")
        script.chmod(0o755)
        return f"engine:{script},{options}"

    return spec


@pytest.mark.parametrize(
    ("mode", "reason", "detail"),
    [
        ("illegal", "illegal_move", "played '0,0', which is not a legal move here"),
        ("offboard", "illegal_move", "played '99,0': point 99,0 is off the 9x9 board"),
        ("hang", "timeout", "did not answer 'BEGIN' within 0.50 s"),
        ("noise", "crash", "answered 'BEGIN' with 'hello there'"),
    ],
)
def test_engine_failures_are_scored_by_what_went_wrong(engine, mode, reason, detail):
    spec = engine(mode, "time=0.3,grace=0.2" if mode == "hang" else "time=2")
    match = Arena(CONFIG, openings="none").match(spec, "random", games=1)
    (game,) = match.forfeits()
    assert (game.forfeited_by, game.outcome.reason) == (spec, reason)
    assert detail in game.outcome.detail


def test_an_engine_that_dies_at_start_forfeits_each_game(engine):
    spec = engine("die")
    match = Arena(CONFIG, openings="none").match(spec, "random", games=2)
    assert [game.forfeited_by for game in match.games] == [spec, spec]
    for game in match.games:
        assert game.outcome.reason == "crash"
        assert game.outcome.detail == (
            "start: EngineExitedError: engine 'pbrain-die' exited with code 7 while "
            "handling 'START 9'; its stderr ends with: fake engine: no licence found"
        )


def test_the_command_line_reports_an_engine_that_dies_at_start(engine, capsys):
    spec = engine("die")
    code = main(["arena", spec, "random", "--games", "2", "--board-size", "9"])
    captured = capsys.readouterr()
    assert code == 0
    assert "forfeits (2, lost by the forfeiting agent)" in captured.out
    assert "exited with code 7 while handling 'START 9'" in captured.out
    assert "Traceback" not in captured.out + captured.err
    # Outside the arena there is no game to forfeit: one clear line, exit code 2.
    code = main(["play", "--black", spec, "--white", "random", "--size", "9"])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err == (
        "gomoku: error: engine 'pbrain-die' exited with code 7 while handling "
        "'START 9'; its stderr ends with: fake engine: no licence found\n"
    )
