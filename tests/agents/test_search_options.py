"""Every search setting declared once: the presets, the specs, ``gomoku agents``, the
budget, and the import contract that keeps the search off the classic agents."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from agents.budget import (
    ALPHABETA_BUDGET,
    ALPHAZERO_BUDGET,
    MCTS_BUDGET,
    Budget,
    spec_budget,
)
from agents.search import (
    ALPHAZERO_PRESET,
    MCTS_PRESET,
    SELF_PLAY_PRESET,
    SearchOptions,
    SearchTree,
    run_searches,
)
from agents.specs import parse as specs
from gomoku_env import Board, GameConfig

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
SEARCH_FIELDS = [item.name for item in dataclasses.fields(SearchOptions)]


def changed(preset: SearchOptions, base: SearchOptions) -> set[str]:
    return {
        name for name in SEARCH_FIELDS if getattr(preset, name) != getattr(base, name)
    }


def test_the_presets_differ_from_the_base_only_where_they_say() -> None:
    assert SearchOptions() == MCTS_PRESET
    assert changed(ALPHAZERO_PRESET, MCTS_PRESET) == {
        "exploration", "leaves_per_round", "distance", "vcf_nodes", "max_nodes",
        "edges_per_node",
    }  # fmt: skip
    assert changed(SELF_PLAY_PRESET, ALPHAZERO_PRESET) == {
        "formula", "leaves_per_round", "dirichlet_alpha", "dirichlet_fraction"
    }  # fmt: skip


def docs(owner: type) -> dict[str, str]:
    return {item.name: item.metadata["help"] for item in dataclasses.fields(owner)}


def test_every_search_field_has_a_meaning() -> None:
    assert all(docs(SearchOptions).values()) and all(docs(Budget).values())


@pytest.mark.parametrize(
    ("name", "budget", "preset"),
    [
        ("mcts", MCTS_BUDGET, MCTS_PRESET),
        ("alphazero", ALPHAZERO_BUDGET, ALPHAZERO_PRESET),
    ],
)
def test_spec_options_and_their_listing_come_from_the_declaration(
    name: str, budget: Budget, preset: SearchOptions
) -> None:
    pytest.importorskip("torch")
    listed = {option.name: option for option in specs.option_help(name)}
    meanings = docs(SearchOptions) | docs(Budget)
    offered = [*SEARCH_FIELDS, "simulations", "time"]
    if name == "alphazero":  # the network evaluates every leaf: no rollouts
        offered.remove("rollout")
    assert "nodes" not in listed and set(offered) <= set(listed)
    for field in offered:
        source = preset if field in SEARCH_FIELDS else budget
        default = getattr(source, field)
        shown = "none" if default is None else str(default).lower()
        assert listed[field].default == shown, (name, field)
        assert listed[field].meaning == meanings[field], (name, field)
    assert listed["exploration"].aliases == ("c",)
    assert listed["leaves_per_round"].aliases == ("batch",)
    assert all(option.meaning for option in listed.values()), name


@pytest.mark.parametrize(
    ("spec", "option"),
    [
        ("mcts:nodes=500", "nodes"),
        ("alphabeta:simulations=500", "simulations"),
        ("alphazero:rollout=random", "rollout"),
    ],
)
def test_an_option_the_agent_does_not_count_is_no_option(
    spec: str, option: str
) -> None:
    name = spec.split(":")[0]
    if name == "alphazero":
        pytest.importorskip("torch")
    assert option not in {listed.name for listed in specs.option_help(name)}
    with pytest.raises(ValueError, match=f"unknown option '{option}'"):
        specs.check_spec(spec)


def test_a_spec_gives_the_preset_with_its_options_under_their_names() -> None:
    agent = specs.make_agent("mcts:simulations=30,c=0.8,batch=2,distance=1", seed=0)
    assert agent.tree.options == dataclasses.replace(
        MCTS_PRESET, formula="uct", exploration=0.8, leaves_per_round=2, distance=1
    )
    assert agent.tree.settings.distance == 1 and agent.budget == Budget(simulations=30)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "needs simulations, nodes or time"),
        ({"simulations": 0}, r"Budget\.simulations"),
        ({"nodes": 2.5}, r"Budget\.nodes"),
        ({"time": 0}, r"Budget\.time"),
        ({"time": float("inf")}, r"Budget\.time"),
    ],
)
def test_a_bad_budget_is_named(options: dict, message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        Budget(**options)


def test_the_spec_budget_is_assembled_in_one_place() -> None:
    options = {"simulations": 400, "time": 1, "depth": 3}
    assert spec_budget(options, MCTS_BUDGET) == Budget(simulations=400, time=1)
    assert options == {"depth": 3}  # the budget's options are taken out
    assert spec_budget({}, ALPHABETA_BUDGET) is ALPHABETA_BUDGET
    assert spec_budget({"time": None}, ALPHABETA_BUDGET) is None
    assert Budget(nodes=5).with_time(0.5) == Budget(nodes=5, time=0.5)


def test_whichever_limit_ends_first_stops_the_search() -> None:
    game = GameConfig(board_size=9)
    tree = SearchTree(game, MCTS_PRESET, seed=0)
    tree.reset(Board.from_moves([40, 41], game))
    # A long clock and a small count: the counted simulations end the search.
    assert run_searches([tree], None, simulations=64, time=3600.0) == [64]
    tree.reset(Board.from_moves([40, 41], game))
    assert run_searches([tree], None, simulations=64) == [64]


@pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter not installed")
def test_the_search_does_not_import_the_classic_agents() -> None:
    result = subprocess.run(
        [str(LINT_IMPORTS)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout
    assert "share the pattern kernels, not each other KEPT" in result.stdout
