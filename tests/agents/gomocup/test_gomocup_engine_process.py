"""The engine process: readiness after a move, and stopping engines that leave helpers.

The "busy" fake engine loses the first word of every command that is waiting when its
busy time after a move ends, as Rapfi does on a loaded machine. These tests never rely
on the machine being fast: the first sends its commands in one write before the fake
answers, so they are waiting whatever the speed; the others only need the engine to be
ready in the end, however long its busy time lasts.
"""

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from agents import RandomAgent
from agents.game import play_game
from agents.gomocup import EngineAgent, EngineError
from agents.gomocup.engine import EngineProcess, EngineTimeoutError
from gomoku_env.config import GameConfig

FAKE_ENGINE = str(Path(__file__).with_name("fake_engine.py"))
CONFIG = GameConfig(board_size=9)
linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads process states from /proc"
)


def test_the_busy_fake_loses_what_arrives_before_it_is_ready():
    process = EngineProcess([sys.executable, FAKE_ENGINE, "busy", "0.2"])
    try:
        assert process.ask("START 9", 10) == "OK"
        process._write("BEGIN\nTURN 4,4\nBEGIN")  # one write: all waiting at once
        assert process.answer("BEGIN", 10) == "1,0"
        with pytest.raises(EngineError, match="'ERROR Unknown command: 4,4'"):
            process.answer("TURN 4,4", 10)
        with pytest.raises(EngineTimeoutError):  # BEGIN lost its only word
            process.answer("BEGIN", 0.5)
        assert list(process.messages) == [
            "MESSAGE busy: lost 'TURN' of 'TURN 4,4'",
            "MESSAGE busy: lost 'BEGIN' of 'BEGIN'",
        ]
    finally:
        process.close()


@pytest.mark.parametrize("busy", ["0.005", "0.1"])
def test_an_engine_deaf_after_its_move_still_hears_every_command(busy):
    with EngineAgent(
        [sys.executable, FAKE_ENGINE, "busy", busy], CONFIG, time=2.0
    ) as engine:
        # The random opponent answers at once, so each TURN (or RESTART) would follow
        # the engine's move within a millisecond: right into the busy time.
        for players, opening in [
            ((engine, RandomAgent()), ()),
            ((RandomAgent(), engine), ()),
            ((engine, RandomAgent()), (40, 41)),
        ]:
            outcome = play_game(*players, CONFIG, opening, seeds=(0, 0))
            assert outcome.forfeit is None, outcome
            assert engine.about()["name"] == "fake"


def test_an_engine_that_never_gets_ready_times_out():
    # Busy for a minute after its move: the probe gives up after time + grace.
    with EngineAgent(
        [sys.executable, FAKE_ENGINE, "busy", "60"], CONFIG, time=1.0, grace=1.0
    ) as engine:
        outcome = play_game(engine, RandomAgent(), CONFIG, seeds=(0, 0))
        assert outcome.reason == "timeout"
        assert "was not ready for 'TURN" in outcome.detail
        assert "did not answer ABOUT within 2.00 s after its move" in outcome.detail


OUR_BRAIN = f"{sys.executable} -m gomoku_apps.cli.main brain random --seed 3"


def launcher(tmp_path, command):
    """A shell script that leaves ``sleep`` running and becomes ``command``.

    The issue's ``sleep 100003 & exec gomoku brain random``: the sleep holds the
    engine's stdout and stderr open after the engine is gone. Its pid goes to the
    returned file, one line per start.
    """
    script = tmp_path / "pbrain-with-helper"
    pid_file = tmp_path / "sleep.pid"
    script.write_text(
        f"#!/bin/sh\nsleep 100003 &\necho $! >> {pid_file}\nexec {command}\n"
    )
    script.chmod(0o755)
    return str(script), pid_file


def living(pid):
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in "ZX"


def living_members(group):
    """Processes of process group ``group`` that are neither gone nor zombies."""
    members = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # not a process, or gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group and fields[0] not in "ZX":
            members.append(int(entry.name))
    return members


def soon(condition, seconds=10.0):
    """Whether ``condition()`` comes true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def finishes(call, seconds):
    """Whether ``call()`` returns within ``seconds`` (it runs in a daemon thread)."""
    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive()


def engine_after_a_game(script):
    """An engine agent running ``script`` that has played a game against random."""
    engine = EngineAgent(script, CONFIG, time=2.0)
    outcome = play_game(engine, RandomAgent(), CONFIG, seeds=(0, 0))
    assert outcome.forfeit is None
    return engine


@linux_only
def test_closing_ends_an_engine_and_the_helpers_holding_its_pipes(tmp_path):
    script, pid_file = launcher(tmp_path, OUR_BRAIN)
    engine = engine_after_a_game(script)
    group = engine._process.pid
    (sleeper,) = map(int, pid_file.read_text().split())
    assert os.getpgid(sleeper) == group != os.getpgid(0)
    assert finishes(engine.close, 10.0), "close() hung on the helper's pipes"
    assert soon(lambda: not living_members(group)), living_members(group)


@linux_only
def test_an_engine_that_dies_is_noticed_though_a_helper_holds_its_output(tmp_path):
    script, _ = launcher(tmp_path, f"{sys.executable} {FAKE_ENGINE} exit")
    with EngineAgent(script, CONFIG, time=30.0) as engine:
        group = engine._process.pid
        outcome = play_game(engine, RandomAgent(), CONFIG, seeds=(0, 0))
        assert outcome.reason == "crash"
        assert "EngineExitedError" in outcome.detail
        assert "exited with code 3" in outcome.detail
        assert sum(outcome.seconds) < 10  # not the 31 s of time + grace
        assert soon(lambda: not living_members(group)), living_members(group)


@linux_only
def test_an_arena_match_with_such_an_engine_returns(tmp_path):
    from gomoku_apps.arena import Arena

    script, pid_file = launcher(tmp_path, OUR_BRAIN)
    results = []

    def match():
        arena = Arena(CONFIG, openings="none", seed=1)
        results.append(arena.match(f"engine:{script},time=2", "random", games=2))

    assert finishes(match, 60.0), "the match hung"
    assert not results[0].forfeits()
    sleepers = [int(pid) for pid in pid_file.read_text().split()]
    assert len(sleepers) == 2  # the arena's spec check, then the match
    assert soon(lambda: not any(map(living, sleepers))), sleepers


def test_an_endless_line_from_an_engine_is_cut_not_kept() -> None:
    """An engine writing a line without end grew the arena to 1.5 GB in 3 s: its
    lines are now cut to LINE_LIMIT characters and the rest dropped as it is read."""
    import io

    from agents.gomocup.engine import LINE_LIMIT, bounded_lines

    stream = io.StringIO("x" * (50 * LINE_LIMIT) + "\nOK\n" + "y" * 10)
    lines = list(bounded_lines(stream))
    assert [len(line) for line in lines] == [LINE_LIMIT, 3, 10]
    assert lines[1] == "OK\n"


def escaping_launcher(tmp_path, command):
    """A shell script that starts two sleeps outside its process group and session
    (``setsid``), one whose parent exits at once (re-parented away from the engine),
    then becomes ``command``; their pids go to the returned file."""
    script = tmp_path / "pbrain-with-escapees"
    pid_file = tmp_path / "escapees.pid"
    script.write_text(
        "#!/bin/sh\n"
        f"setsid sleep 100011 & echo $! >> {pid_file}\n"
        f"setsid sh -c 'sleep 100012 & echo $! >> {pid_file}'\n"
        f"exec {command}\n"
    )
    script.chmod(0o755)
    return str(script), pid_file


def escapees(pid_file, count=2):
    """The pids in ``pid_file`` once all ``count`` are written."""
    assert soon(
        lambda: pid_file.exists() and len(pid_file.read_text().split()) == count
    )
    pids = [int(pid) for pid in pid_file.read_text().split()]
    assert all(os.getsid(pid) != os.getsid(0) for pid in pids), "not in new sessions"
    return pids


@linux_only
def test_processes_that_leave_the_engines_group_die_with_it(tmp_path):
    """A child the engine started with ``setsid`` outlived the kill of its group."""
    script, pid_file = escaping_launcher(tmp_path, OUR_BRAIN)
    engine = engine_after_a_game(script)
    pids = escapees(pid_file)
    assert all(map(living, pids))
    assert finishes(engine.close, 10.0)
    assert soon(lambda: not any(map(living, pids))), pids


@linux_only
def test_killing_the_engines_owner_kills_the_engine_and_what_it_started(tmp_path):
    """After ``kill -9`` of the process that ran an engine, nothing it started lives."""
    import signal
    import subprocess

    script, pid_file = escaping_launcher(tmp_path, OUR_BRAIN)
    owner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from agents.gomocup.engine import EngineProcess\n"
            "engine = EngineProcess([sys.argv[1]])\n"
            "print(engine._process.pid, flush=True)\n"
            "time.sleep(600)\n",
            script,
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        reaper = int(owner.stdout.readline())
        pids = escapees(pid_file)
        assert living(reaper) and all(map(living, pids))
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    assert soon(lambda: not living(reaper) and not any(map(living, pids))), pids
