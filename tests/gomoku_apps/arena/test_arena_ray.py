"""Arena and ladder on Ray: the same games as locally for the same seed, a worker that
dies loses no game, the progress bar counts every game; without Ray, a clear error."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gomoku_apps.arena import Arena, run_ladder
from gomoku_apps.cli.main import main
from gomoku_apps.cli.options import ProgressBar
from gomoku_env import GameConfig

CONFIG = GameConfig(board_size=7)
ROGUE_AGENTS = Path(__file__).resolve().parents[1] / "rogue_agents.py"


def _games(games):
    return [(g.index, g.black, g.white, g.opening, g.outcome.moves) for g in games]


@pytest.mark.usefixtures("ray_cluster")
class TestOnRay:
    def test_a_match_on_ray_plays_the_same_games_as_locally(self) -> None:
        local = Arena(CONFIG, seed=7).match("random", "heuristic", games=8)
        bar = ProgressBar("on ray", io.StringIO(), force=True)
        on_ray = Arena(CONFIG, seed=7, jobs=2, ray="local").match(
            "random", "heuristic", games=8, on_result=bar
        )
        assert _games(on_ray.games) == _games(local.games)
        first = local.names[0]
        assert on_ray.tally(first) == local.tally(first)
        assert on_ray.stopped is None
        assert "8/8 games" in bar.stream.getvalue()

    def test_a_ladder_on_ray_gives_the_same_games_and_ratings(self) -> None:
        specs = ["random", "heuristic", "random"]
        local = run_ladder(Arena(CONFIG, seed=3), specs, games_per_pair=4)
        on_ray = run_ladder(Arena(CONFIG, seed=3, ray="local"), specs, games_per_pair=4)
        assert _games(on_ray.games) == _games(local.games)
        assert on_ray.ratings == local.ratings

    def test_a_worker_killed_mid_match_loses_no_game(self, tmp_path: Path) -> None:
        marker = tmp_path / "died"
        rogue = f"python:{ROGUE_AGENTS}:DyingOnce,marker={marker}"
        on_ray = Arena(CONFIG, seed=5, jobs=2, ray="local").match(
            "random", rogue, games=10
        )
        assert marker.exists()  # a worker did die, in the middle of a game
        assert on_ray.stopped is None and len(on_ray.games) == 10
        # Locally, the marker now there, nobody dies: the same games, none lost.
        local = Arena(CONFIG, seed=5).match("random", rogue, games=10)
        assert _games(on_ray.games) == _games(local.games)
        assert on_ray.tally(rogue) == local.tally(rogue)

    def test_an_agent_that_kills_a_worker_now_and_then_still_finishes(self) -> None:
        # Locally this match stops (a dead worker breaks the process pool); on Ray
        # each replacement worker dies in its own third game, and the games go on.
        rogue = f"python:{ROGUE_AGENTS}:DyingInThirdGame"
        match = Arena(CONFIG, seed=1, jobs=1, ray="local").match(
            "random", rogue, games=6
        )
        assert match.stopped is None and len(match.games) == 6

    def test_a_game_that_kills_every_try_stops_the_match_with_a_report(self) -> None:
        rogue = f"python:{ROGUE_AGENTS}:Dying"
        match = Arena(CONFIG, jobs=1, ray="local").match("random", rogue, games=4)
        assert match.stopped.startswith(
            "a worker process died in each of the 4 tries of game 0"
        )
        assert match.games == ()

    def test_the_cli_arena_runs_on_ray(self, capsys: pytest.CaptureFixture) -> None:
        arguments = ["arena", "random", "random", "--board-size", "7", "--games", "4"]
        assert main([*arguments, "--no-progress", "--ray"]) == 0
        on_ray = capsys.readouterr().out.splitlines()
        assert main([*arguments, "--no-progress"]) == 0
        local = capsys.readouterr().out.splitlines()
        results = slice(0, 7)  # the W/D/L table and score; times differ
        assert on_ray[results] == local[results]


def test_without_ray_the_option_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    arguments = ["arena", "random", "random", "--board-size", "7", "--games", "2"]
    assert main([*arguments, "--ray"]) == 2
    assert "pip install -e '.[ray]'" in capsys.readouterr().err
    assert main([*arguments, "--no-progress"]) == 0  # without --ray, no Ray needed


def test_a_word_after_ray_that_is_no_address_is_refused(
    capsys: pytest.CaptureFixture,
) -> None:
    with pytest.raises(SystemExit):
        main(["ladder", "--ray", "random", "heuristic"])
    assert "'random' is not a Ray address" in capsys.readouterr().err


def _processes_in_group(group: int) -> list[str]:
    """The command lines of the live processes whose process group is ``group``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == group and fields[0] != "Z":
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" "))
        except (OSError, ValueError, IndexError):
            continue  # not a process, or one that ended meanwhile
    return [command.decode(errors="replace") for command in found]


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_ctrl_c_stops_an_arena_on_ray_with_a_report_and_no_ray_left(
    tmp_path: Path,
) -> None:
    pytest.importorskip("ray", reason="needs the ray extra")
    marker = tmp_path / "thinking"
    staller = f"python:{ROGUE_AGENTS}:StallingAfterMarker,marker={marker}"
    command = [sys.executable, "-m", "gomoku_apps.cli.main", "arena", staller]
    command += ["random", "--games", "8", "--board-size", "7", "--openings", "none"]
    command += ["--ray", "--jobs", "2", "--no-progress"]
    process = subprocess.Popen(
        command,
        start_new_session=True,  # its own process group, as a terminal gives it
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 240  # only a hang reaches it
        while not marker.exists():
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < deadline, "the games never started"
            time.sleep(0.2)
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C in its terminal
        output, _ = process.communicate(timeout=240)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 1, output
    assert "stopped early: interrupted after 0 of 8 games" in output
    deadline = time.monotonic() + 60
    while _processes_in_group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.5)  # Ray's own processes end a moment after the driver
    assert _processes_in_group(process.pid) == []
