"""EngineAgent against tiny misbehaving fake engines in real subprocesses."""

import gc
import re
import sys
from pathlib import Path

import pytest

import gomoku_env
from agents import RandomAgent
from agents.game import play_game
from agents.gomocup import (
    EngineAgent,
    EngineError,
    EngineExitedError,
    EngineIllegalMoveError,
    EngineTimeoutError,
)
from agents.specs.parse import make_agent, parse_spec
from gomoku_env.config import GameConfig

FAKE_ENGINE = str(Path(__file__).with_name("fake_engine.py"))


def fake(mode, **options):
    options.setdefault("config", GameConfig(board_size=9))
    return EngineAgent([sys.executable, FAKE_ENGINE, mode], **options)


def test_a_hanging_engine_is_reported_within_the_timeout():
    engine = fake("hang", time=0.3, grace=0.2)
    env = gomoku_env.env(board_size=9)
    env.reset()
    with pytest.raises(  # the fake sleeps an hour: only the timeout returns
        EngineTimeoutError, match=r"did not answer 'BEGIN' within 0\.50 s"
    ):
        engine.act(env.last()[0])
    assert not engine._process.alive
    engine.close()


def test_an_engine_exiting_mid_game_is_reported_with_its_stderr():
    with fake("exit", time=3600.0) as engine:  # a client that waits out the move
        env = gomoku_env.env(board_size=9)  # time fails by pytest's timeout
        env.reset()
        env.step(engine.act(env.last()[0]))
        env.step(40)
        with pytest.raises(EngineExitedError, match=r"code 3.*out of cheese"):
            engine.act(env.last()[0])


@pytest.mark.parametrize(
    ("mode", "error", "message"),
    [
        ("illegal", EngineIllegalMoveError, "played '0,0', which is not a legal move"),
        ("offboard", EngineIllegalMoveError, "played '99,0': point 99,0 is off the"),
        ("noise", EngineError, "answered 'BOARD' with 'hello there'"),
    ],
)
def test_bad_answers_are_reported(mode, error, message):
    with fake(mode) as engine:
        env = gomoku_env.env(board_size=9, opening="a9")
        env.reset()
        with pytest.raises(error, match=message) as raised:
            engine.act(env.last()[0])
        assert (type(raised.value) is EngineIllegalMoveError) == (mode != "noise")


def test_refusals_and_bad_options_are_clear():
    with pytest.raises(EngineError, match="answered 'START 9' with 'ERROR this fake"):
        fake("refuse")
    with pytest.raises(
        EngineExitedError,
        match=r"^engine 'python.*' exited with code 7 while handling 'START 9'; "
        r"its stderr ends with: fake engine: no licence found$",
    ):
        fake("die")
    with pytest.raises(ValueError, match="cannot run engine '/no/such/pbrain'"):
        EngineAgent("/no/such/pbrain")
    with pytest.raises(ValueError, match="time must be a finite number > 0"):
        fake("chatty", time=0)
    with pytest.raises(ValueError, match="five in a row"):
        fake("chatty", config=GameConfig(board_size=9, win_length=4))
    with pytest.raises(ValueError, match="needs a path"):
        make_agent("engine")
    with pytest.raises(ValueError, match="unknown option 'speed' for agent 'engine'"):
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
        assert engine.about() == {"name": "fake", "version": "0.1", "author": "tests"}
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


@pytest.mark.parametrize(
    ("mode", "reason", "detail"),
    [
        ("hang", "timeout", "EngineTimeoutError: engine 'python.*' did not answer"),
        ("illegal", "illegal_move", "EngineIllegalMoveError: .* played '0,0'"),
        ("offboard", "illegal_move", "EngineIllegalMoveError: .* played '99,0'"),
        ("noise", "crash", "EngineError: .* with 'hello there'"),
        ("exit", "crash", "EngineExitedError: .* exited with code 3"),
    ],
)
def test_a_game_loop_scores_engine_failures_by_what_went_wrong(mode, reason, detail):
    limits = {"time": 0.3, "grace": 0.2} if mode == "hang" else {"time": 2.0}
    with fake(mode, **limits) as engine:
        config = GameConfig(board_size=9)
        outcome = play_game(engine, RandomAgent(), config, (40,), seeds=(0, 0))
        assert (outcome.forfeit, outcome.reason) == ("black", reason)
        assert re.match(detail, outcome.detail), outcome.detail


def test_a_move_cut_short_by_the_game_loop_stops_the_engine():
    with fake("hang", time=5.0) as engine:
        config = GameConfig(board_size=9)
        outcome = play_game(engine, RandomAgent(), config, move_time_limit=0.3)
        assert outcome.reason == "timeout"
        assert not engine._process.alive  # out of step: the next reset starts afresh
        engine.reset()
        assert engine._process.alive
