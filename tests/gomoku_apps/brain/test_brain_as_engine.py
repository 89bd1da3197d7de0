"""Our Gomocup brain as an engine: EngineAgent plays ``gomoku brain`` and a launcher.

The games go through the one game loop (:func:`agents.game.play_game`), engine against
a RandomAgent, so an engine's crash or illegal answer would show up as a forfeit.
"""

import sys

import pytest

from agents import RandomAgent
from agents.game import play_game
from agents.gomocup import EngineAgent, EngineError
from agents.specs.parse import make_agent, parse_spec
from gomoku_apps.cli.brain import write_launcher
from gomoku_env.config import GameConfig
from gomoku_env.notation import parse_moves

OUR_BRAIN = [
    sys.executable,
    "-m",
    "gomoku_apps.cli.main",
    "brain",
    "random",
    "--seed",
    "5",
]


def check_games(engine, config):
    """The engine finishes games as black, as white, and from an opening."""
    for engine_is_black, opening in [(True, ""), (False, ""), (True, "h8 i9")]:
        players = (
            (engine, RandomAgent()) if engine_is_black else (RandomAgent(), engine)
        )
        moves = parse_moves(opening, config.board_size) if opening else ()
        outcome = play_game(*players, config, moves, seeds=(0, 0))
        assert outcome.forfeit is None, outcome
        assert outcome.reason in ("five", "board_full"), outcome
        assert len(outcome.moves) >= 9


def test_engine_agent_plays_our_brain_on_15x15():
    config = GameConfig(board_size=15)
    with EngineAgent(OUR_BRAIN, config, time=2.0) as engine:
        check_games(engine, config)
        assert engine.about()["name"] == "gomoku_env random"
        process = engine._process
    assert not process.alive


def test_engine_spec_runs_a_launcher_on_20x20_in_standard_rule(tmp_path):
    launcher = write_launcher(tmp_path / "pbrain-gomoku_env-random", "random", seed=2)
    spec = f"engine:{launcher},time=2,grace=2"
    assert parse_spec(spec) == (
        "engine",
        {"path": str(launcher), "time": 2, "grace": 2},
    )
    config = GameConfig(board_size=20, rule="standard")
    engine = make_agent(spec, config)
    try:
        check_games(engine, config)
    finally:
        engine.close()
    with pytest.raises(EngineError, match="was closed"):
        engine.reset()
