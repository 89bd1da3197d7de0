"""The gomoku command: --version, --help on each command, arena, ladder and bench."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gomoku_apps.cli.main import SUBCOMMANDS, main
from gomoku_apps.cli.options import ProgressBar
from gomoku_env import __version__


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"gomoku {__version__}"


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_on_each_command(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    assert f"usage: gomoku {command}" in capsys.readouterr().out


def test_arena_command_prints_the_report(tmp_path, capsys):
    code = main(
        [
            "arena",
            "random",
            "random",
            "--games",
            "4",
            "--board-size",
            "7",
            "--seed",
            "3",
            "--records",
            str(tmp_path),
            "--no-progress",
        ]
    )
    output = capsys.readouterr().out
    assert code == 0
    assert "random vs random#2: 4 games, 7x7 freestyle" in output
    assert "Elo difference" in output and "as black" in output
    assert len(list(tmp_path.glob("game-*.txt"))) == 4


def test_arena_command_with_sprt(capsys):
    code = main(
        [
            "arena",
            "random",
            "random",
            "--games",
            "6",
            "--board-size",
            "7",
            "--sprt",
            "0",
            "50",
            "--no-progress",
        ]
    )
    assert code == 0
    assert "SPRT elo0=0 elo1=50" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["arena", "random", "nobody", "--board-size", "7"], "unknown agent 'nobody'"),
        (["arena", "random", "random", "--board-size", "4"], "board_size"),
        (["arena", "random", "random", "--sprt", "5", "1"], "elo0 must be below"),
        (["arena", "random", "random", "--jobs", "4096"], "jobs must be an int"),
    ],
)
def test_arena_command_errors(arguments, message, capsys):
    assert main(arguments) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--games", "1000000000", "<= 100000"),
        ("--move-time", "1e10", "<= 3600"),
        ("--move-time", "nan", "a finite number"),
    ],
)
@pytest.mark.parametrize("command", ["arena", "ladder", "rate"])
def test_sizes_a_command_would_allocate_are_bounded_first(
    command, option, value, message, capsys
):
    """A billion games built every task before the first game (3 GB, no output); a
    move time of 1e10 s overflowed the clock in every game. Both are refused now."""
    agents = ["random"] if command == "rate" else ["random", "heuristic"]
    with pytest.raises(SystemExit):
        main([command, *agents, "--board-size", "9", option, value])
    errors = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert len(errors) == 1 and message in errors[0]


@pytest.mark.parametrize(
    "command",
    [
        ["arena", "{spec}", "random"],
        ["ladder", "{spec}", "random", "--output", "{tmp}/ladder"],
        ["play", "--black", "random", "--white", "{spec}"],
        ["brain", "{spec}"],
    ],
)
def test_an_agent_factory_that_raises_is_a_clear_error(
    command, tmp_path, monkeypatch, capsys
):
    agent_file = tmp_path / "broken.py"
    agent_file.write_text("def make(**options):\n    raise RuntimeError('no GPU')\n")
    spec = f"python:{agent_file}:make"
    monkeypatch.setattr("sys.stdin", io.StringIO("START 15\nEND\n"))
    arguments = [part.format(spec=spec, tmp=tmp_path) for part in command]
    code = main(arguments)
    captured = capsys.readouterr()
    message = f"agent spec {spec!r} failed to build: RuntimeError: no GPU"
    if command[0] == "brain":  # the manager is told, at START
        assert code == 0 and message in captured.out
    else:
        assert code == 2 and f"gomoku: error: {message}" in captured.err


def test_unwritable_records_are_refused_before_any_game(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    arguments = ["arena", "random", "random", "--board-size", "7", "--no-progress"]
    assert main([*arguments, "--records", str(blocker / "records")]) == 2
    captured = capsys.readouterr()
    assert f"gomoku: error: cannot write records in {blocker / 'records'}" in (
        captured.err
    )
    assert captured.out == ""


def test_ladder_command_writes_files(tmp_path, capsys):
    prefix = tmp_path / "ladder"
    code = main(
        [
            "ladder",
            "random",
            "random",
            "--games-per-pair",
            "2",
            "--board-size",
            "7",
            "--output",
            str(prefix),
            "--no-progress",
            "--no-plot",
        ]
    )
    output = capsys.readouterr().out
    assert code == 0
    assert "| rank | agent | rating" in output
    assert (tmp_path / "ladder.md").exists() and (tmp_path / "ladder.csv").exists()
    assert not (tmp_path / "ladder.png").exists()


def test_bench_lists_and_runs_scripts(tmp_path, capsys):
    (tmp_path / "bench_hello.py").write_text(
        "import sys\nprint('hello', *sys.argv[1:])\nsys.exit(3)\n"
    )
    assert main(["bench", "--dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.split() == ["hello"]
    assert main(["bench", "--dir", str(tmp_path), "hello", "x"]) == 3
    assert main(["bench", "--dir", str(tmp_path), "nope"]) == 2
    assert "unknown benchmark 'nope'" in capsys.readouterr().err


def test_progress_bar_draws_only_when_enabled():
    stream = io.StringIO()
    bar = ProgressBar("a vs b", stream, force=True)
    for done in (1, 2):
        bar(None, done, 2)
    bar.close()
    text = stream.getvalue()
    assert "1/2 games" in text and "[" + "#" * 30 + "] 2/2 games" in text
    assert text.endswith("\n")
    quiet = io.StringIO()
    ProgressBar("a vs b", quiet)(None, 1, 2)  # a StringIO is not a terminal
    assert quiet.getvalue() == ""


ROGUE_AGENTS = Path(__file__).resolve().parents[1] / "rogue_agents.py"


@pytest.mark.parametrize(
    ("rogue", "jobs", "reason"),
    [
        ("CtrlCInThirdGame", "1", "interrupted after 2 of 6 games"),
        ("DyingInThirdGame", "2", "a worker process died"),
    ],
)
def test_a_match_cut_short_still_prints_its_report(rogue, jobs, reason, capsys):
    agent = f"python:{ROGUE_AGENTS}:{rogue}"
    arguments = ["arena", "random", agent, "--games", "6", "--board-size", "7"]
    assert main([*arguments, "--jobs", jobs, "--no-progress"]) == 1
    report = capsys.readouterr().out
    assert "results of random:" in report
    assert f"stopped early: {reason}" in report


def test_a_ladder_cut_short_is_a_clear_error(capsys):
    agent = f"python:{ROGUE_AGENTS}:CtrlCInThirdGame"
    arguments = ["ladder", "random", agent, "--board-size", "7", "--no-progress"]
    assert main(arguments) == 1
    assert "gomoku: error: the ladder stopped: interrupted" in capsys.readouterr().err


def test_records_onto_an_earlier_match_s_folder_need_force(tmp_path, capsys):
    arguments = ["arena", "random", "random", "--games", "2", "--board-size", "7"]
    arguments += ["--no-progress", "--records", str(tmp_path)]
    earlier = tmp_path / "game-00000.txt"
    earlier.write_text("an earlier match's record")
    assert main(arguments) == 2
    captured = capsys.readouterr()
    assert f"the records folder {tmp_path} is not empty" in captured.err
    assert "--force" in captured.err and captured.out == ""
    assert earlier.read_text() == "an earlier match's record"
    assert main([*arguments, "--force"]) == 0
    assert earlier.read_text().startswith("# gomoku_env game record")
    assert len(list(tmp_path.glob("game-*.txt"))) == 2


def test_off_a_terminal_a_long_run_says_once_how_long_the_rest_takes():
    quiet = io.StringIO()
    bar = ProgressBar("a vs b", quiet)
    for done in range(1, 201):
        bar(None, done, 200)
    lines = quiet.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("a vs b: 10/200 games played, about")
    assert "--games sets how many" in lines[0]


def test_searches_on_work_budgets_write_the_same_records_whatever_the_jobs(
    tmp_path, capsys
):
    """The reproducibility a reference scale rests on: MCTS on simulations and
    alpha-beta on nodes play the same games for the same seed in one process or two."""
    folders = []
    for jobs in ("1", "2"):
        folder = tmp_path / f"jobs-{jobs}"
        arguments = ["arena", "mcts:simulations=20", "alphabeta:nodes=300"]
        arguments += ["--board-size", "7", "--games", "4", "--seed", "11"]
        assert main([*arguments, "--jobs", jobs, "--records", str(folder)]) == 0
        folders.append(folder)
    capsys.readouterr()
    games = [sorted(folder.glob("game-*.txt")) for folder in folders]
    assert len(games[0]) == 4
    for one, two in zip(*games, strict=True):
        assert one.read_text() == two.read_text()


def test_a_ladder_output_that_is_a_folder_is_refused_before_any_game(tmp_path, capsys):
    (tmp_path / "mine.csv").mkdir()
    records = tmp_path / "games"
    arguments = ["ladder", "random", "heuristic", "--board-size", "7", "--games", "2"]
    code = main(
        [*arguments, "--output", str(tmp_path / "mine"), "--records", str(records)]
    )
    assert code == 2
    assert "mine.csv' is a directory, not a regular file" in capsys.readouterr().err
    assert not list(records.glob("game-*.txt"))  # no game was played


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_workers_end_when_the_arena_is_killed(tmp_path):
    """After kill -9 of gomoku arena --jobs 2 both workers kept running at 100% CPU;
    now each notices its parent is gone within about a second and exits."""
    import os
    import signal
    import subprocess
    import sys
    import time

    arena = subprocess.Popen(
        [
            *(
                sys.executable,
                "-m",
                "gomoku_apps.cli.main",
                "arena",
                "random",
                "random",
            ),
            *(
                "--board-size",
                "19",
                "--games",
                "100000",
                "--jobs",
                "2",
                "--no-progress",
            ),
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def children() -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if entry.name.isdigit() and int(fields[1]) == arena.pid:
                found.append(int(entry.name))
        return found

    deadline = time.monotonic() + 60
    while len(children()) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    workers = children()
    assert len(workers) >= 2
    os.kill(arena.pid, signal.SIGKILL)
    arena.wait()

    def running(pid: int) -> bool:  # a process that ended may linger as a zombie
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state != "Z"

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(running(w) for w in workers):
        time.sleep(0.2)
    assert [w for w in workers if running(w)] == []
