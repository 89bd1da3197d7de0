"""The networks shipped in the package: present, small, loadable, and playing."""

from __future__ import annotations

import pytest

import gomoku_env
from agents.alphazero.agent import AlphaZeroAgent, default_budget
from agents.alphazero.checkpoint import (
    WEIGHTS_DIR,
    bundled_names,
    default_weights,
    load_network,
    resolve_weights,
)
from agents.budget import ALPHAZERO_BUDGET, Budget
from agents.specs.parse import make_agent
from gomoku_env.config import GameConfig
from gomoku_env.planes import PLANE_COUNT

SHIPPED = ("8x8", "9x9", "15x15", "15x15-gumbel")
MAX_BYTES = 5 * 1024 * 1024


def test_each_network_is_shipped_small_and_trained_on_its_size() -> None:
    assert set(SHIPPED) <= set(bundled_names())
    for name in SHIPPED:
        path = resolve_weights(name)
        assert path.parent == WEIGHTS_DIR and path.stat().st_size < MAX_BYTES
        network, metadata = load_network(path)
        assert network.config.input_planes == PLANE_COUNT
        assert metadata["progress"]["games"] > 0, "no training behind the network"
        assert metadata["game"]["board_size"] == int(name.split("x")[0])


@pytest.mark.parametrize(
    ("size", "name"), [(8, "8x8"), (9, "9x9"), (15, "15x15-gumbel")]
)
def test_default_network_for_each_size_plays_a_legal_move(size: int, name: str) -> None:
    assert default_weights(size) == resolve_weights(name)
    agent = AlphaZeroAgent(
        GameConfig(board_size=size), budget=Budget(simulations=8), seed=0
    )
    env = gomoku_env.env(board_size=size, random_opening=3)
    env.reset(seed=size)
    observation, *_ = env.last()
    assert observation["action_mask"][agent.act(observation)] == 1


def test_sizes_without_their_own_network_fall_back_to_the_strongest_15x15() -> None:
    assert default_weights(11) == resolve_weights("15x15-gumbel")


def test_a_bundled_network_plays_at_its_own_default_budget(tmp_path) -> None:
    fifteen, nine = GameConfig(board_size=15), GameConfig(board_size=9)
    assert default_budget(None, fifteen) == Budget(simulations=400)
    assert default_budget("15x15-gumbel", nine) == Budget(simulations=400)
    assert default_budget(str(WEIGHTS_DIR / "15x15-gumbel.pt"), nine).simulations == 400
    assert default_budget(None, nine) == ALPHAZERO_BUDGET
    assert default_budget("15x15", fifteen) == ALPHAZERO_BUDGET
    copy = tmp_path / "15x15-gumbel.pt"  # a file of the user's, not the bundled one
    copy.write_bytes(resolve_weights("15x15-gumbel").read_bytes())
    assert default_budget(str(copy), fifteen) == ALPHAZERO_BUDGET
    network, _ = load_network(resolve_weights("15x15-gumbel"))
    assert default_budget(network, fifteen) == ALPHAZERO_BUDGET


@pytest.mark.parametrize(
    ("spec", "size", "budget"),
    [
        ("alphazero", 15, Budget(simulations=400)),
        ("alphazero:weights=15x15", 15, Budget(simulations=200)),
        ("alphazero", 9, Budget(simulations=200)),
        ("alphazero:simulations=100", 15, Budget(simulations=100)),
        ("alphazero:time=2", 15, Budget(time=2.0)),
    ],
)
def test_a_spec_without_a_budget_takes_the_networks_own(
    spec: str, size: int, budget: Budget
) -> None:
    agent = make_agent(spec, GameConfig(board_size=size), seed=0)
    assert agent.budget == budget
