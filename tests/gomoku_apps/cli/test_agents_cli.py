"""``gomoku agents``: every agent, every option, from the factories' own declarations."""

from __future__ import annotations

import pytest

from agents import specs
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
    assert out.startswith("heuristic[:attack=int,defence=int]")
    assert "mcts" not in out
    assert main(["agents", "heuristc"]) == 2
    assert "did you mean 'heuristic'" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["mcts", "alphabeta", "heuristic", "engine"])
def test_every_declared_option_has_a_meaning(name):
    assert all(option.meaning for option in specs.option_help(name)), name
