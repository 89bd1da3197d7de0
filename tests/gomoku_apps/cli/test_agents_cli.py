"""``gomoku agents``: every agent, every option, from the factories' own declarations."""

from __future__ import annotations

import pytest

from agents.specs import parse as specs
from gomoku_apps.cli.main import main


def test_every_agent_and_option_is_listed_with_type_default_and_meaning(capsys):
    assert main(["agents"]) == 0
    text = capsys.readouterr().out
    for name in specs.registered_names():
        assert specs.usage(name) in text
    assert "exploration | c (number, default 1.0)" in text
    assert "depth (int or none, default none)" in text
    assert "the deepest iteration" in text  # meaning from the options' docstrings


def test_one_agent_and_a_misspelled_one(capsys):
    assert main(["agents", "heuristic"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("heuristic[:attack=int,defence=int,noise=number]")
    assert "mcts" not in out
    assert main(["agents", "heuristc"]) == 2
    assert "did you mean 'heuristic'" in capsys.readouterr().err


@pytest.mark.parametrize("name", specs.registered_names())
def test_every_listed_option_has_a_meaning_and_a_default(name):
    for option in specs.option_help(name):
        assert option.meaning.strip(), f"{name}: {option.name} has no meaning"
        assert option.default.strip(), f"{name}: {option.name} has a blank default"
    if name == "engine":
        (path, *_) = specs.option_help(name)
        assert (path.name, path.default) == ("path", "required")


def test_a_warning_of_the_command_is_one_line_without_a_source_path(tmp_path):
    """A network trained for 9x9 five, played as four in a row: one plain line."""
    import subprocess
    import sys

    finished = subprocess.run(
        [
            *(sys.executable, "-m", "gomoku_apps.cli.main", "arena", "ppo:weights=9x9"),
            *("random", "--board-size", "9", "--win-length", "4", "--games", "2"),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stderr
    warned = [line for line in finished.stderr.splitlines() if "warning" in line]
    assert warned and all(line.startswith("gomoku: warning: ") for line in warned)
    assert "win length 5 (here 4)" in warned[0]
    assert ".py:" not in finished.stderr
