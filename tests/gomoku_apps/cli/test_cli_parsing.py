"""The gomoku command's parsers: verb usage and suggestions on errors, aliases, help."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from gomoku_apps.cli.main import SUBCOMMANDS, build_parser, main
from gomoku_apps.cli.parsing import plain_text

TOP_USAGE = "usage: gomoku [-h]"


def _error(arguments: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(arguments)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "verb", "suggestion"),
    [
        (["play", "--sise", "9"], "play", "--board-size"),
        (["play", "--board-sise", "9"], "play", "--board-size"),
        (["play", "--ouptut", "game.txt"], "play", "--output"),
        (["arena", "random", "random", "--gmaes", "4"], "arena", "--games"),
        (["arena", "random", "random", "--win-lenght=4"], "arena", "--win-length"),
        (["ladder", "random", "random", "--games-per-pari", "4"], "ladder", "--games"),
        (["rate", "random", "--ancors", "random"], "rate", "--anchors"),
        (["brain", "random", "--sed", "1"], "brain", "--seed"),
        (["replay", "game.txt", "--strat", "3"], "replay", "--start"),
        (["train", "--blokcs", "2"], "train alphazero", "--blocks"),
        (["train", "ppo", "--layres", "2"], "train ppo", "--layers"),
    ],
)
def test_a_misspelled_option_shows_the_verbs_usage_and_the_nearest_option(
    arguments, verb, suggestion, capsys
):
    error = _error(arguments, capsys)
    assert error.startswith(f"usage: gomoku {verb} ")
    assert TOP_USAGE not in error
    assert f"gomoku {verb}: error: unrecognized arguments: " in error
    assert error.rstrip().endswith(f"did you mean {suggestion}?")


def test_an_unknown_argument_far_from_any_option_gets_no_guess(capsys):
    error = _error(["arena", "random", "random", "--xyzzy"], capsys)
    assert "unrecognized arguments: --xyzzy" in error and "did you mean" not in error
    error = _error(["arena", "random", "random", "extra"], capsys)
    assert error.startswith("usage: gomoku arena ")
    assert "unrecognized arguments: extra" in error


def test_a_misspelled_verb_gets_the_nearest_verb(capsys):
    error = _error(["arean", "random", "random"], capsys)
    assert error.startswith(TOP_USAGE)
    assert "unknown command 'arean'; did you mean 'arena'?" in error
    assert "commands: " + ", ".join(SUBCOMMANDS) in error
    error = _error(["zzzz"], capsys)
    assert "unknown command 'zzzz' (commands:" in error


@pytest.mark.parametrize(
    ("old", "new", "value", "attribute", "expected"),
    [
        (["play"], "--size", "9", "board_size", 9),
        (["play"], "--save", "game.txt", "output", "game.txt"),
        (["arena", "random", "random"], "--size", "7", "board_size", 7),
        (["ladder", "random", "random"], "--games-per-pair", "6", "games", 6),
    ],
)
def test_old_spellings_still_work(old, new, value, attribute, expected):
    arguments = build_parser().parse_args([*old, new, value])
    assert getattr(arguments, attribute) == expected


def test_one_spelling_for_the_shared_options():
    """Every verb names these options alike; old spellings are only aliases."""
    shared = {"board_size", "win_length", "rule", "seed", "jobs", "games", "output"}
    for name, verb in build_parser().verbs.items():
        for action in verb._actions:
            long_names = [o for o in action.option_strings if o.startswith("--")]
            if action.dest in shared:
                assert long_names[0] == "--" + action.dest.replace("_", "-"), name
            if long_names:
                assert long_names[0] not in ("--size", "--save", "--games-per-pair")


def _help(verb: str, capsys) -> str:
    with pytest.raises(SystemExit):
        main([*verb.split(), "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("verb", SUBCOMMANDS)
def test_help_names_each_default_once_and_has_no_markup(verb, capsys):
    text = _help(verb, capsys)
    assert "(default: None)" not in text and "(default: False)" not in text
    entries = re.split(r"\n  (?=-)", text)
    for entry in entries:
        assert entry.count("default") <= 1, entry
    assert "``" not in text and ":class:" not in text and "::" not in text


def test_train_help_explains_the_budget_dependent_defaults(capsys):
    text = " ".join(_help("train alphazero", capsys).split())
    assert "torch CPU threads (small networks on a busy machine: 1 is fastest)" in text
    assert (
        "--board-size N side of the board, 5 to 25 (also --size) (default: 9)" in text
    )
    assert "(unset: 64, fewer for budgets under half an hour)" in text
    assert "(unset: 2000, or 64 for budgets under half an hour)" in text
    assert "run the same command again on the same --out folder" in text


def test_an_alias_is_mentioned_not_listed(capsys):
    text = _help("play", capsys)
    assert "--board-size N " in text and "(also --size)" in text
    assert "--size N" not in text
    assert "-o FILE, --output FILE" in text and "(also --save)" in text


def _verbs_and_routes() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every verb's parser, and each route's of a verb with routes (``train ppo``)."""
    found = []
    for name, parser in build_parser().verbs.items():
        found.append((name, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                found += [(f"{name} {r}", p) for r, p in action.choices.items()]
    return found


@pytest.mark.parametrize("verb", [name for name, _ in _verbs_and_routes()])
def test_every_option_has_help(verb):
    """Every option of every verb (and route) says what it does."""
    parser = dict(_verbs_and_routes())[verb]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help and action.help.strip(), (verb, action.option_strings)


def test_plain_text_drops_restructuredtext_markup():
    assert plain_text("``gomoku train``: see :func:`agents.play_game`") == (
        "gomoku train: see agents.play_game"
    )
    assert plain_text("a :class:`~gomoku_env.Rule` and `x`") == "a Rule and x"
    assert plain_text("Examples::\n\n    gomoku play") == "Examples:\n\n    gomoku play"


def test_the_command_reference_lists_every_option():
    """docs/cli.md names each verb's options in its section or the shared table."""
    text = (Path(__file__).resolve().parents[3] / "docs" / "cli.md").read_text()
    shared_table = text.split("## One spelling for each option")[1].split("\n## ")[0]
    for name, verb in _verbs_and_routes():
        section = text.split(f"## `gomoku {name.split()[0]}`")[1].split("\n## ")[0]
        for action in verb._actions:
            long_names = [o for o in action.option_strings if o.startswith("--")]
            if not long_names or long_names[0] == "--help":
                continue
            option = f"`{long_names[0]}"
            assert option in section or option in shared_table, (name, option)
