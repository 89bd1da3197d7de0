"""EngineAgent against real subprocesses: our own brain, and tiny misbehaving fakes."""

import gc
import sys
import time
from pathlib import Path

import pytest

import gomoku_env
from agents import RandomAgent
from agents.gomocup import (
    EngineAgent,
    EngineError,
    EngineExitedError,
    EngineTimeoutError,
)
from agents.specs import make_agent, parse_spec
from gomoku_apps.cli.brain import write_launcher
from gomoku_env.config import GameConfig

FAKE_ENGINE = str(Path(__file__).with_name("fake_engine.py"))
OUR_BRAIN = [
    sys.executable,
    "-m",
    "gomoku_apps.cli.main",
    "brain",
    "random",
    "--seed",
    "5",
]


def fake(mode, **options):
    options.setdefault("config", GameConfig(board_size=9))
    return EngineAgent([sys.executable, FAKE_ENGINE, mode], **options)


def play_game(engine, engine_color, board_size, opening=None, seed=0):
    """One game in the AEC env, engine against RandomAgent; returns the final info."""
    env = gomoku_env.env(board_size=board_size, opening=opening)
    env.reset(seed=seed)
    players = {"black_0": RandomAgent(seed=seed), "white_0": RandomAgent(seed=seed)}
    players[engine_color] = engine
    engine.reset()
    for agent in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(players[agent].act(observation))
    return info


def check_games(engine, board_size):
    for color, opening in [("black_0", None), ("white_0", None), ("black_0", "h8 i9")]:
        info = play_game(engine, color, board_size, opening)
        assert info["reason"] in ("five", "board_full"), info
        assert info["moves"] >= 9


def test_engine_agent_plays_our_brain_on_15x15():
    with EngineAgent(OUR_BRAIN, GameConfig(board_size=15), time=2.0) as engine:
        check_games(engine, 15)
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
        check_games(engine, 20)
    finally:
        engine.close()
    with pytest.raises(EngineError, match="was closed"):
        engine.reset()


def test_a_hanging_engine_is_reported_within_the_timeout():
    engine = fake("hang", time=0.3, grace=0.2)
    env = gomoku_env.env(board_size=9)
    env.reset()
    started = time.monotonic()
    with pytest.raises(
        EngineTimeoutError, match=r"did not answer 'BEGIN' within 0\.50 s"
    ):
        engine.act(env.last()[0])
    assert time.monotonic() - started < 1.5
    assert not engine._process.alive
    engine.close()


def test_an_engine_exiting_mid_game_is_reported_with_its_stderr():
    with fake("exit", time=5.0) as engine:
        env = gomoku_env.env(board_size=9)
        env.reset()
        env.step(engine.act(env.last()[0]))
        env.step(40)
        started = time.monotonic()
        with pytest.raises(EngineExitedError, match=r"code 3.*out of cheese"):
            engine.act(env.last()[0])
        assert time.monotonic() - started < 2.0


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("illegal", "played '0,0', which is not a legal move"),
        ("noise", "answered 'BOARD' with 'hello there'"),
    ],
)
def test_bad_answers_are_reported(mode, message):
    with fake(mode) as engine:
        env = gomoku_env.env(board_size=9, opening="a9")
        env.reset()
        with pytest.raises(EngineError, match=message):
            engine.act(env.last()[0])


def test_refusals_and_bad_options_are_clear():
    with pytest.raises(EngineError, match="answered 'START 9' with 'ERROR this fake"):
        fake("refuse")
    with pytest.raises(ValueError, match="cannot run engine '/no/such/pbrain'"):
        EngineAgent("/no/such/pbrain")
    with pytest.raises(ValueError, match="time must be > 0"):
        fake("chatty", time=0)
    with pytest.raises(ValueError, match="five in a row"):
        fake("chatty", config=GameConfig(board_size=9, win_length=4))
    with pytest.raises(ValueError, match="needs a path"):
        make_agent("engine")
    with pytest.raises(ValueError, match="bad options for agent 'engine'"):
        make_agent(f"engine:{FAKE_ENGINE},speed=3")


def test_messages_are_collected_and_moves_resynchronised():
    with fake("chatty") as engine:
        env = gomoku_env.env(board_size=9)
        env.reset()
        assert engine.act(env.last()[0]) == 1  # BEGIN: fake plays (1, 0)
        env.step(1)
        env.step(40)
        assert engine.act(env.last()[0]) == 2  # TURN
        # A position the engine has not seen: RESTART and a BOARD block.
        env.reset(options={"opening": "a1 b1"})
        assert engine.act(env.last()[0]) == 1
        assert list(engine.messages) == [
            "MESSAGE move 1 coming",
            "DEBUG depth 1",
            "MESSAGE move 2 coming",
            "DEBUG depth 1",
            "MESSAGE move 1 coming",
            "DEBUG depth 1",
        ]


def test_engine_specs_take_any_path_first():
    assert parse_spec("engine:/usr/local/bin/pbrain-x,time=1.0") == (
        "engine",
        {"path": "/usr/local/bin/pbrain-x", "time": 1.0},
    )
    assert parse_spec(r"engine:C:\brains\pbrain-x.exe") == (
        "engine",
        {"path": r"C:\brains\pbrain-x.exe"},
    )
    assert parse_spec("engine:path=/opt/a=b/pbrain-y,grace=2") == (
        "engine",
        {"path": "/opt/a=b/pbrain-y", "grace": 2},
    )
    assert parse_spec("random:x=1") == ("random", {"x": 1})


def test_a_dropped_agent_ends_its_engine():
    engine = fake("chatty")
    popen = engine._process._process
    assert popen.poll() is None
    del engine
    gc.collect()
    assert popen.poll() == 0  # it got END and exited by itself


def test_size_rule_and_limits_are_sent():
    config = GameConfig(board_size=9, rule="standard")
    with fake(
        "echo", config=config, time=0.5, match_time=10, max_memory=1000
    ) as engine:
        env = gomoku_env.env(board_size=9)
        env.reset()
        engine.act(env.last()[0])
        assert list(engine.messages) == [
            "DEBUG START 9",
            "DEBUG INFO timeout_turn 500",
            "DEBUG INFO timeout_match 10000",
            "DEBUG INFO max_memory 1000",
            "DEBUG INFO game_type 1",
            "DEBUG INFO rule 1",
            "DEBUG INFO time_left 10000",
        ]
