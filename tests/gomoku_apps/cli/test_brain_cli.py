"""``gomoku brain``: the protocol on stdin/stdout, spec errors and launcher scripts."""

import io
import os
import shlex
import subprocess
import sys
from pathlib import Path

from agents.gomocup.protocol import parse_point
from gomoku_apps.cli.brain import launcher_text
from gomoku_apps.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def test_brain_serves_the_protocol_on_stdin_and_stdout(monkeypatch, capsys):
    monkeypatch.setattr(
        sys, "stdin", io.StringIO("START 9\r\nBEGIN\r\nEND\r\nABOUT\r\n")
    )
    assert main(["brain", "random", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "OK" and len(lines) == 2
    assert 0 <= parse_point(lines[1], 9) < 81


def test_brain_refuses_an_unknown_agent(capsys):
    assert main(["brain", "grandmaster"]) == 2
    error = capsys.readouterr().err
    assert "unknown agent 'grandmaster'" in error and "random" in error


def test_launcher_is_an_executable_script_running_this_python(tmp_path, capsys):
    path = tmp_path / "pbrain-test"
    assert main(["brain", "random", "--seed", "4", "--launcher", str(path)]) == 0
    assert f"wrote {path}" in capsys.readouterr().out
    assert os.access(path, os.X_OK)
    text = path.read_text()
    assert text == launcher_text("random", 4)
    assert text.startswith("#!/bin/sh\n")
    assert (
        f"exec {sys.executable} -m gomoku_apps.cli.main brain random --seed 4" in text
    )
    spec = "python:my mod:make;rm -rf ~"
    exec_line = launcher_text(spec, None).splitlines()[-1]
    assert shlex.split(exec_line) == [
        "exec",
        sys.executable,
        "-m",
        "gomoku_apps.cli.main",
        "brain",
        spec,
    ]


def test_launcher_in_a_missing_folder_is_an_error(tmp_path, capsys):
    assert (
        main(["brain", "random", "--launcher", str(tmp_path / "no" / "pbrain-x")]) == 2
    )
    assert "does not exist" in capsys.readouterr().err


BUSY_AGENTS = "tests/gomoku_apps/rogue_agents.py"


def test_stray_prints_of_the_agent_go_to_stderr_not_to_the_manager(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("START 9\nBEGIN\nEND\n"))
    assert main(["brain", f"python:{BUSY_AGENTS}:Chatty"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["OK", "8,8"]
    assert "7,7" in captured.err


def test_end_while_an_alphazero_agent_searches_exits_cleanly():
    """Torch threads torn down under a running search used to abort (exit 134)."""
    commands = "START 9\nINFO timeout_turn 300\nTURN 4,4\nEND\n"
    brain = ["gomoku_apps.cli.main", "brain", f"python:{BUSY_AGENTS}:SlowAlphaZero"]
    finished = subprocess.run(
        [sys.executable, "-m", *brain],
        input=commands,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert "terminate called" not in finished.stderr
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.splitlines()[-1] == "3,3"


def test_a_launcher_path_that_is_a_symlink_is_refused(tmp_path, capsys):
    """``--launcher PATH`` resolved the path first and so wrote through a symlink."""
    target = tmp_path / "someone-elses-file"
    target.write_text("keep me\n")
    link = tmp_path / "pbrain-x"
    link.symlink_to(target)
    assert main(["brain", "random", "--launcher", str(link)]) == 2
    error = capsys.readouterr().err
    assert "symlink" in error and "pbrain-x" in error
    assert target.read_text() == "keep me\n" and link.is_symlink()


def test_a_launcher_path_that_is_a_folder_is_refused(tmp_path, capsys):
    folder = tmp_path / "pbrain-x"
    folder.mkdir()
    assert main(["brain", "random", "--launcher", str(folder)]) == 2
    assert "a directory, not a regular file" in capsys.readouterr().err
    assert folder.is_dir()
