"""``--rule`` is parsed once, into the Rule enum, by every command that takes it."""

from __future__ import annotations

import pytest

from gomoku_apps.cli.main import build_parser
from gomoku_env import Rule


@pytest.mark.parametrize(
    "command",
    [
        ["play"],
        ["arena", "random", "random"],
        ["ladder", "random", "random"],
        ["train"],
    ],
)
def test_rule_arrives_as_the_enum(command):
    parser = build_parser()
    assert parser.parse_args(command).rule is Rule.FREESTYLE
    assert parser.parse_args([*command, "--rule", "Renju"]).rule is Rule.RENJU


@pytest.mark.parametrize("command", [["play"], ["arena", "random", "random"]])
def test_an_unknown_rule_is_a_usage_error(command, capsys):
    with pytest.raises(SystemExit, match="2"):
        build_parser().parse_args([*command, "--rule", "renjuish"])
    assert "unknown rule 'renjuish'" in capsys.readouterr().err
