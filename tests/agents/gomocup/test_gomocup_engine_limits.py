"""What an engine can make its manager hold: notes it floods, helpers it leaves.

Issue 45: an engine writing MESSAGE lines while nobody asked it anything grew the
manager by 0.5-0.9 GB in seconds; helpers an engine left behind stayed zombies below
the reaper until the engine exited; and a helper started with ``setsid`` outlived an
engine that was killed for a forfeit.
"""

import os
import signal
import sys
import tracemalloc
from pathlib import Path

import pytest

from agents import RandomAgent
from agents.game import play_game
from agents.gomocup import EngineAgent
from agents.gomocup.engine import EngineProcess
from gomoku_env.config import GameConfig

FAKE_ENGINE = str(Path(__file__).with_name("fake_engine.py"))
CONFIG = GameConfig(board_size=9)
linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads process states from /proc"
)
FLOOD_LINES = 100_000
FLOODER = (
    "import sys\n"
    f"sys.stdout.write(('MESSAGE ' + 'x' * 200 + '\\n') * {FLOOD_LINES})\n"
    "sys.stdout.write('OK\\n')\n"
    "sys.stdout.flush()\n"
)


def test_a_flood_of_notes_is_not_kept_and_the_answer_still_comes():
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        process = EngineProcess([sys.executable, "-c", FLOODER])
        try:
            # The pipe holds at most 64 KiB: once the engine has exited, the reader
            # has taken in (nearly) every line while nobody was asking.
            process._process.wait(timeout=60)
            _, peak = tracemalloc.get_traced_memory()
            assert process.answer("START 9", 60) == "OK"
        finally:
            process.close()
    finally:
        tracemalloc.stop()
    assert peak - start < 8_000_000, f"{(peak - start) / 1e6:.0f} MB held"
    assert 0 < len(process.messages) <= 1000


def stat_fields(pid):
    """State and parent of process ``pid`` from /proc, or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def zombie_children(parent):
    """Zombie processes whose parent is ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        fields = stat_fields(entry.name) if entry.name.isdigit() else None
        if fields and fields[1] == parent and fields[0] == "Z":
            found.append(int(entry.name))
    return found


@linux_only
def test_helpers_that_exit_while_the_engine_lives_are_collected(tmp_path):
    script = tmp_path / "pbrain-orphans"
    script.write_text(
        "#!/bin/sh\n"
        "for i in 1 2 3 4 5 6 7 8 9 10; do sh -c 'sleep 0.01 &'; done\n"
        f"exec {sys.executable} {FAKE_ENGINE} chatty\n"
    )
    script.chmod(0o755)
    process = EngineProcess([str(script)])
    try:
        assert process.ask("START 9", 30) == "OK"
        reaper = process.pid
        assert soon(lambda: not zombie_children(reaper), 5.0), zombie_children(reaper)
    finally:
        process.close()


def soon(condition, seconds=10.0):
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def living(pid):
    fields = stat_fields(pid)
    return fields is not None and fields[0] not in "ZX"


@linux_only
def test_a_setsid_helper_dies_with_an_engine_killed_for_a_forfeit(tmp_path):
    """``setsid sleep &`` then ``exec`` the engine; the engine forfeits on time, is
    killed, and the sleep went on (the group kill took the reaper first)."""
    pid_file = tmp_path / "sleep.pid"
    script = tmp_path / "pbrain-setsid"
    script.write_text(
        "#!/bin/sh\n"
        f"setsid sleep 61 & echo $! > {pid_file}\n"
        f"exec {sys.executable} {FAKE_ENGINE} hang\n"
    )
    script.chmod(0o755)
    sleeper = None
    try:
        with EngineAgent(str(script), CONFIG, time=0.5, grace=0.5) as engine:
            assert soon(lambda: pid_file.exists() and pid_file.read_text().strip())
            sleeper = int(pid_file.read_text())
            assert os.getsid(sleeper) != os.getsid(0)
            outcome = play_game(engine, RandomAgent(), CONFIG, seeds=(0, 0))
            assert outcome.reason == "timeout"
            assert soon(lambda: not living(sleeper)), "the setsid helper lives on"
    finally:
        if sleeper is not None and living(sleeper):
            os.kill(sleeper, signal.SIGKILL)
