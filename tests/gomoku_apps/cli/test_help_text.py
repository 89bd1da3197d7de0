"""What ``--help`` and ``gomoku agents`` show matches what the parsers take."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agents.specs.parse import option_help, parse_spec
from gomoku_apps.cli.agents import agent_text
from gomoku_apps.cli.main import SUBCOMMANDS, build_parser

FILLED = {
    "NAME": ("mcts", "python"),
    "TARGET": "my_module:make_agent",
}
"""What a syntax's words are replaced by: NAME by an agent without a target and by
one with, TARGET by a module's callable."""


def _help(verb: str) -> str:
    parser = build_parser().verbs[verb]
    return " ".join(parser.format_help().split())


def _spec_syntaxes(text: str) -> list[str]:
    """The spec syntaxes a help shows: the words that start with NAME."""
    return re.findall(r"NAME\S*?\.\.\.\]", text)


def _filled(syntax: str) -> tuple[str, dict]:
    """A spec written by ``syntax`` (every optional part given) and the options it
    must parse to."""
    with_target = "TARGET" in syntax
    name = FILLED["NAME"][with_target]
    key, value, parsed = ("depth", "3", 3) if with_target else ("simulations", "5", 5)
    spec = syntax.replace("[", "").replace("]", "").replace(",...", "")
    spec = spec.replace("NAME", name).replace("TARGET", FILLED["TARGET"])
    expected = {"target": FILLED["TARGET"]} if with_target else {}
    return spec.replace("key=value", f"{key}={value}"), {**expected, key: parsed}


SPEC_VERBS = [verb for verb in SUBCOMMANDS if _spec_syntaxes(_help(verb))]


def test_the_commands_that_take_specs_show_their_syntax() -> None:
    assert {"arena", "ladder", "rate", "agents"} <= set(SPEC_VERBS)


@pytest.mark.parametrize("verb", SPEC_VERBS)
def test_every_spec_syntax_a_help_shows_parses_as_it_says(verb: str) -> None:
    text = _help(verb)
    for syntax in _spec_syntaxes(text):
        spec, expected = _filled(syntax)
        assert parse_spec(spec)[1] == expected, (verb, syntax, spec)
    for example in re.findall(r"e\.g\. (.*?) \(", text):
        for spec in example.split(", "):
            parse_spec(spec)


def test_the_docs_spec_syntax_is_the_helps() -> None:
    docs = (Path(__file__).resolve().parents[3] / "docs" / "cli.md").read_text()
    shown = re.findall(r"`(NAME\S*?\.\.\.\])`", docs)
    assert shown and all(parse_spec(_filled(s)[0])[1] == _filled(s)[1] for s in shown)


@pytest.mark.parametrize("name", ["python", "engine"])
def test_a_target_is_listed_as_required(name: str) -> None:
    target = option_help(name)[0]
    assert (target.type, target.default) == ("text", "required")
    assert "default none" not in agent_text(name).splitlines()[1]


def test_help_shows_percent_signs_and_on_off_flags_once() -> None:
    assert "%%" not in _help("rate") and "95% interval" in _help("rate")
    routes = build_parser().verbs["train"]._subparsers._group_actions[0].choices
    text = " ".join(routes["ppo"].format_help().split())
    assert "--progress, --no-progress a progress bar" in text
    assert "(also --no-progress)" not in text and "(default: True)" not in text
    assert "(default: --progress)" in text


def test_every_count_is_written_n() -> None:
    text = _help("serve")
    assert "--max-games N " in text and "MAX_GAMES" not in text


@pytest.mark.parametrize("verb", ["brain", "play"])
def test_the_seed_shows_its_default(verb: str) -> None:
    assert re.search(r"--seed N seeds [^-]*\(default: 0\)", _help(verb))


def test_the_alphazero_weights_option_names_every_bundled_network() -> None:
    weights = Path(__file__).resolve().parents[3] / "agents" / "alphazero" / "weights"
    meaning = next(o for o in option_help("alphazero") if o.name == "weights").meaning
    for network in weights.glob("*.pt"):
        assert f"``{network.stem}``" in meaning
