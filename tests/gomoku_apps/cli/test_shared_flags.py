"""A flag that several commands share has one default and one meaning everywhere.

Every ``gomoku`` command and route, and every example's command line (the ``Args``
dataclasses of ``examples/``, read from their source so that no RL library needs to
be installed), is checked: ``--seed``, ``--threads``, ``--rule`` and ``--jobs`` have
the same default wherever they exist; ``--board-size`` and ``--win-length`` keep each
command's own default (15 where agents play, 9 for training, 6 for the smallest
examples) but show it in the help; and each flag's help opens with the same words.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from agents.training.example_runs import ExampleArgs
from gomoku_apps.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[3]

MEANINGS = {
    "--seed": "seeds ",
    "--board-size": "side of the board",
    "--win-length": "stones in a row that win",
    "--rule": "how a line wins",
    "--threads": "torch CPU threads",
    "--jobs": "games at once",
}
"""The words each shared flag's help opens with: what the flag is."""

DEFAULTS = {"--seed": 0, "--threads": 1, "--rule": "freestyle", "--jobs": 1}
"""The one default of the flags whose default is the same everywhere."""

PENDING: dict[tuple[str, str], str] = {}
"""Flags left out of the default check, and why."""


def _command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Every command's parser, a route's as ``"train ppo"``."""
    parsers = {}
    for verb, parser in build_parser().verbs.items():
        parsers[verb] = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for route, sub in action.choices.items():
                    parsers[f"{verb} {route}"] = sub
    return parsers


def _command_flags() -> list[tuple[str, str, Any, str, str]]:
    """(command, flag, default, help, the command's formatted help) of every shared
    flag of every command."""
    rows = []
    for command, parser in _command_parsers().items():
        text = " ".join(parser.format_help().split())
        for action in parser._actions:
            names = [name for name in action.option_strings if name in MEANINGS]
            if names:
                rows.append((command, names[0], action.default, action.help, text))
    return rows


def _literal(node: ast.expr) -> Any:
    """A field's default in source: a literal, or the first argument of bounded()."""
    if isinstance(node, ast.Call):
        node = node.args[0]
    return ast.literal_eval(node)


def _example_flags() -> list[tuple[str, str, Any, str]]:
    """(example, flag, default, help) of every shared flag of the examples' ``Args``,
    their base :class:`ExampleArgs` included."""
    base = {
        item.name: (item.default, item.metadata["help"])
        for item in dataclasses.fields(ExampleArgs)
    }
    rows = []
    for path in sorted((ROOT / "examples").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for owner in ast.walk(tree):
            if not (isinstance(owner, ast.ClassDef) and owner.name == "Args"):
                continue
            fields = dict(base) if owner.bases else {}
            for statement in owner.body:
                if isinstance(statement, ast.AnnAssign) and statement.value:
                    fields[statement.target.id] = _default_and_help(statement.value)
            for name, (default, doc) in fields.items():
                flag = "--" + name.replace("_", "-")
                if flag in MEANINGS:
                    rows.append((path.name, flag, default, doc))
    return rows


def _default_and_help(value: ast.expr) -> tuple[Any, str]:
    """The default and help of a field declared as ``option(default, help=...)``."""
    if not (isinstance(value, ast.Call) and getattr(value.func, "id", "") == "option"):
        return _literal(value), ""
    helps = [k.value.value for k in value.keywords if k.arg == "help"]
    return _literal(value.args[0]), " ".join(helps)


def _plain(value: Any) -> Any:
    return getattr(value, "value", value)  # a Rule by its name


def _effective(default: Any, help_text: str) -> Any:
    """The value a flag has when not given: ``default``, or what "(unset: X)" says."""
    if default is None:
        said = re.search(r"unset: ([^,)]+)", help_text or "")
        return said and int(said[1]) if said and said[1].isdigit() else None
    return _plain(default)


COMMAND_FLAGS = _command_flags()
EXAMPLE_FLAGS = _example_flags()


def test_every_shared_flag_is_found() -> None:
    found = {flag for _, flag, *_ in COMMAND_FLAGS} | {
        flag for _, flag, *_ in EXAMPLE_FLAGS
    }
    assert found == set(MEANINGS)
    assert {name for name, *_ in EXAMPLE_FLAGS} >= {
        "sb3_maskable_ppo.py",
        "aec_selfplay.py",
        "tianshou_dqn.py",
    }


@pytest.mark.parametrize(
    ("command", "flag", "default", "help_text", "text"),
    COMMAND_FLAGS,
    ids=[f"{row[0]} {row[1]}" for row in COMMAND_FLAGS],
)
def test_a_commands_shared_flag_has_the_one_default_and_meaning(
    command: str, flag: str, default: Any, help_text: str, text: str
) -> None:
    assert help_text.startswith(MEANINGS[flag]), (command, flag, help_text)
    if (command, flag) in PENDING:
        return
    if flag in DEFAULTS:
        assert _effective(default, help_text) == DEFAULTS[flag], (command, flag)
    else:  # its own default, shown
        meaning = re.escape(MEANINGS[flag])
        pattern = rf"{flag} N {meaning}[^()]*(\(also [^)]*\) )?\(default: {default}\)"
        assert re.search(pattern, text), (command, flag)


@pytest.mark.parametrize(
    ("example", "flag", "default", "help_text"),
    EXAMPLE_FLAGS,
    ids=[f"{row[0]} {row[1]}" for row in EXAMPLE_FLAGS],
)
def test_an_examples_shared_flag_has_the_one_default_and_meaning(
    example: str, flag: str, default: Any, help_text: str
) -> None:
    assert help_text.startswith(MEANINGS[flag]), (example, flag, help_text)
    if flag in DEFAULTS:
        assert default == DEFAULTS[flag], (example, flag)


def test_train_ppo_takes_the_rule_and_the_old_size_spelling() -> None:
    from agents.specs.flags import flag_values
    from gomoku_apps.cli.train_ppo import ppo_config

    arguments = build_parser().parse_args(
        ["train", "ppo", "--size", "7", "--rule", "standard"]
    )
    config = ppo_config(arguments)
    assert (config.board_size, config.rule) == (7, "standard")
    assert config.game.rule.value == "standard"
    assert flag_values(type(config), arguments)["board_size"] == 7
