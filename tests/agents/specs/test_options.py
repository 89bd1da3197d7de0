"""Typed options from one declaration: config fields, flags and spec options."""

from __future__ import annotations

import argparse
import dataclasses
import math
from dataclasses import dataclass

import pytest

from agents.alphazero.training_config import SelfPlayConfig, TrainingConfig
from agents.budget import Budget
from agents.search import SearchOptions
from agents.specs import registry
from agents.specs.flags import add_flags, flag_values
from agents.specs.parse import check_spec, parse_spec, usage
from agents.specs.registry import register_agent
from gomoku_env.fields import check_fields, check_number, convert, option


@dataclass(frozen=True)
class Knobs:
    rounds: int = option(3, help="rounds to play", minimum=1, aliases=("laps",))
    share: float = option(0.5, help="a share of something", minimum=0, maximum=1)
    limit: float | None = option(None, help="seconds, or none for no limit", above=0)
    verbose: bool = option(False, help="talk more")

    def __post_init__(self) -> None:
        check_fields(self)


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (float("nan"), ValueError, "must be a finite number > 0, got nan"),
        (math.inf, ValueError, "got inf"),
        (0, ValueError, "> 0, got 0"),
        (True, TypeError, "got True"),
        ("1", TypeError, "got '1'"),
    ],
)
def test_check_number_refuses_what_no_option_takes(value, error, message):
    with pytest.raises(error, match=message):
        check_number("time", value, above=0)


def test_check_number_returns_plain_python_numbers():
    assert check_number("n", 3, minimum=1, integer=True) == 3
    assert type(check_number("x", 1, minimum=0)) is float
    with pytest.raises(TypeError, match=r"n must be an int, got 2\.0"):
        check_number("n", 2.0, integer=True)


def test_fields_are_checked_against_their_bounds():
    assert Knobs(limit=None).limit is None
    with pytest.raises(ValueError, match=r"Knobs.share must be .* <= 1, got 1.5"):
        Knobs(share=1.5)
    with pytest.raises(ValueError, match=r"Knobs\.limit must be a finite number > 0"):
        Knobs(limit=float("nan"))
    with pytest.raises(ValueError, match=r"Knobs\.rounds must be an int >= 1, got 0"):
        Knobs(rounds=0)


def test_flags_mirror_the_fields():
    parser = argparse.ArgumentParser()
    add_flags(parser, Knobs)
    args = parser.parse_args(["--laps", "5", "--share", "0.25", "--verbose"])
    assert Knobs(**flag_values(Knobs, args)) == Knobs(5, 0.25, None, True)
    assert flag_values(Knobs, parser.parse_args([])) == {
        "rounds": 3,
        "share": 0.5,
        "verbose": False,
    }
    help_text = parser.format_help()
    assert "rounds to play" in help_text and "a share of something" in help_text


@pytest.mark.parametrize(
    "argv", [["--share", "2"], ["--rounds", "1.5"], ["--limit", "nan"]]
)
def test_a_bad_flag_value_names_the_flag(argv, capsys):
    parser = argparse.ArgumentParser()
    add_flags(parser, Knobs)
    with pytest.raises(SystemExit):
        parser.parse_args(argv)
    assert argv[0] in capsys.readouterr().err


def test_prefixed_flags_are_read_back_as_the_fields():
    parser = argparse.ArgumentParser()
    add_flags(parser, Knobs, prefix="warm-")
    args = parser.parse_args(["--warm-rounds", "2", "--warm-limit", "none"])
    assert flag_values(Knobs, args, prefix="warm_") == {
        "rounds": 2,
        "share": 0.5,
        "verbose": False,
    }
    assert "--rounds" not in parser.format_help()


@dataclass(frozen=True)
class Grouped:
    width: int = option(8, help="width of the layers", minimum=1, flag="network")
    games: int = option(
        64, help="games at once", minimum=1, flag="play", unset="fewer when short"
    )
    depth: int = option(2, help="not a flag of any group", minimum=0)


def test_a_group_takes_the_fields_declared_in_it_with_their_unset_words():
    parser = argparse.ArgumentParser()
    add_flags(parser, Grouped, group="play")
    assert parser.parse_args([]).games is None  # unset: the caller decides
    assert parser.parse_args(["--games", "3"]).games == 3
    assert "(unset: 64, fewer when short)" in " ".join(parser.format_help().split())
    with pytest.raises(SystemExit):
        parser.parse_args(["--width", "3"])  # in the "network" group, not here


def test_a_preset_gives_the_flags_their_defaults():
    parser = argparse.ArgumentParser()
    add_flags(parser, Grouped, group="network", defaults=Grouped(width=32))
    assert parser.parse_args([]).width == 32
    assert "--depth" not in parser.format_help()


def test_every_training_field_has_its_help():
    for config in (TrainingConfig, SelfPlayConfig, SearchOptions, Budget):
        for item in dataclasses.fields(config):
            assert item.metadata["help"], (config, item.name)


def test_training_configs_refuse_non_finite_values():
    with pytest.raises(ValueError, match=r"TrainingConfig\.cpu_hours"):
        TrainingConfig(cpu_hours=float("inf"))
    with pytest.raises(ValueError, match=r"SearchOptions\.exploration"):
        SearchOptions(exploration=float("nan"))


@dataclass(frozen=True)
class Typed:
    weights: str | None = option(None, help="a file")
    depth: int | None = option(3, help="plies")
    time: float = option(1.0, help="seconds")
    reuse: bool = option(True, help="keep the tree")


def test_spec_text_is_converted_by_the_declared_type(monkeypatch):
    monkeypatch.setattr(registry, "AGENTS", dict(registry.AGENTS))
    register_agent("test_typed", lambda config, seed, **options: None, options=[Typed])
    declared = registry.AGENTS["test_typed"].options
    assert list(declared) == ["weights", "depth", "time", "reuse"]
    assert convert("weights", "15", declared["weights"].annotation) == "15"
    assert convert("depth", "none", declared["depth"].annotation) is None
    assert convert("time", "2", declared["time"].annotation) == 2.0
    assert convert("reuse", "no", declared["reuse"].annotation) is False
    with pytest.raises(ValueError, match=r"depth must be an integer, got '1\.5'"):
        convert("depth", "1.5", declared["depth"].annotation)
    with pytest.raises(ValueError, match="reuse must be true or false"):
        convert("reuse", "maybe", declared["reuse"].annotation)


def test_undeclared_options_are_typed_by_their_look(monkeypatch):
    """A factory registered without options dataclasses takes any option."""
    monkeypatch.setattr(registry, "AGENTS", dict(registry.AGENTS))
    register_agent("test_open", lambda config, seed, depth=1: None)
    assert usage("test_open") == "test_open[:key=value,...]"
    assert parse_spec("test_open:depth=3,weights=15,fast=true,name=x")[1] == {
        "depth": 3,
        "weights": 15,
        "fast": True,
        "name": "x",
    }
    register_agent("test_closed", lambda config, seed: None)
    with pytest.raises(ValueError, match="unknown option 'depth'"):
        check_spec("test_closed:depth=3")


@pytest.mark.parametrize(
    ("spec", "refusal"),
    [
        ("alphabeta:vcf_plies=1000000000", r"vcf_plies must be an int .*<= 625"),
        ("alphabeta:leaf_vcf_plies=1000", r"leaf_vcf_plies must be an int .*<= 625"),
        ("alphabeta:table_bits=40", r"table_bits must be an int .*<= 26"),
        ("mcts:edges_per_node=100000", r"edges_per_node must be an int .*<= 625"),
        ("mcts:max_nodes=1000000000", r"max_nodes must be an int .*<= 67108864"),
        ("mcts:max_nodes=67108864,edges_per_node=625", "over the tree's 2,147,483,647"),
    ],
)
def test_every_size_a_spec_can_ask_for_is_bounded_before_it_is_allocated(
    spec: str, refusal: str
) -> None:
    """Each of these once allocated what it asked (a 2 ** 40-entry table, a tree of
    2 ** 40 edges whose int32 indices wrapped): refused now, before any array."""
    from agents.specs.parse import make_agent
    from gomoku_env.config import GameConfig

    with pytest.raises(ValueError, match=refusal):
        make_agent(spec, GameConfig(board_size=9))


def test_an_engine_is_told_no_number_beyond_gomocup_s_32_bits() -> None:
    """INFO timeout_turn is milliseconds in 32 bits: a longer time or a larger memory
    limit is refused naming it, before any program starts."""
    from agents.gomocup import EngineAgent

    with pytest.raises(
        ValueError, match=r"time must be a finite number > 0 and <= 2147483"
    ):
        EngineAgent("/no/such/brain", time=1e7)
    with pytest.raises(
        ValueError, match=r"max_memory must be an int >= 0 and <= 2147483647"
    ):
        EngineAgent("/no/such/brain", max_memory=2**40)
