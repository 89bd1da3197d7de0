"""AlphaZeroAgent: a plain policy in the env, built from specs, reusing its tree."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

import gomoku_env
from agents.alphazero.agent import AlphaZeroAgent
from agents.alphazero.checkpoint import resolve_weights, save_network
from agents.alphazero.evaluator import NetworkEvaluator
from agents.alphazero.network import PolicyValueNet
from agents.budget import Budget
from agents.search import ALPHAZERO_PRESET
from agents.search.mcts import MCTSAgent
from agents.specs.parse import make_agent
from gomoku_env.config import GameConfig
from gomoku_env.planes import board_from_stones
from tests.agents.alphazero.test_network import TINY

GAME = GameConfig(7, 4)


@pytest.fixture(scope="module")
def weights_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("weights") / "tiny.pt"
    save_network(PolicyValueNet(TINY), path)
    return path


def test_plays_a_whole_game_from_a_spec_reusing_its_tree(weights_file: Path) -> None:
    spec = f"alphazero:weights={weights_file},simulations=24,batch=4"
    players = {
        "black_0": make_agent(spec, GAME, 0),
        "white_0": make_agent(spec, GAME, 1),
    }
    assert isinstance(players["black_0"], AlphaZeroAgent)
    env = gomoku_env.env(board_size=7, win_length=4)
    env.reset(seed=0)
    reused = []
    for name in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = players[name].act(observation)
        assert observation["action_mask"][action] == 1
        reused.append(players[name].last_summary.reused_nodes)
        env.step(action)
    assert info["reason"] in ("five", "board_full")
    assert max(reused[2:]) > 0, "the tree was never reused"


def untrained_agent(**options: object) -> AlphaZeroAgent:
    torch.manual_seed(0)
    return AlphaZeroAgent(GAME, PolicyValueNet(TINY), seed=0, **options)


def test_is_the_search_agent_with_a_network_evaluator() -> None:
    agent = untrained_agent(budget=Budget(simulations=8))
    assert isinstance(agent, MCTSAgent)
    assert isinstance(agent.evaluator, NetworkEvaluator)
    assert agent.evaluator is agent.network_evaluator
    assert agent.evaluator.network is agent.network
    assert agent.tree.options == replace(ALPHAZERO_PRESET, formula="puct")
    assert agent.tree.settings.distance == 0
    assert agent.tree.max_edges == ALPHAZERO_PRESET.max_nodes * GAME.cells


def test_untrained_network_search_takes_the_win_and_the_block() -> None:
    # 7x7, four in a row: black 15-17 (a three with one open end at 18).
    win = board_from_stones([15, 16, 17], [14, 0, 48], 48, GAME)
    block = board_from_stones([15, 16, 17], [14, 0], 17, GAME)
    agent = untrained_agent(budget=Budget(simulations=50))
    assert agent.act_on_board(win) == 18
    assert agent.last_summary.root_value == 1.0
    agent.reset()
    assert agent.act_on_board(block) == 18


def test_summary_and_network_policy_for_overlays(weights_file: Path) -> None:
    agent = AlphaZeroAgent(GAME, str(weights_file), Budget(simulations=16), seed=1)
    env = gomoku_env.env(board_size=7, win_length=4)
    env.reset(seed=1)
    observation, *_ = env.last()
    action = agent.act(observation)
    summary = agent.last_summary
    assert summary.action == action == summary.principal_variation[0]
    assert summary.simulations == 16 and summary.visits.sum() >= 15
    assert -1 <= summary.root_value <= 1
    priors = agent.network_policy(observation)
    np.testing.assert_allclose(priors.sum(), 1.0, rtol=1e-5)
    assert np.all(priors[observation["action_mask"] == 0] == 0)


def test_same_seed_same_moves(weights_file: Path) -> None:
    def moves(seed: int) -> list[int]:
        black = AlphaZeroAgent(GAME, weights_file, Budget(simulations=12), seed=seed)
        env = gomoku_env.env(board_size=7, win_length=4, random_opening=2)
        env.reset(seed=3)
        played = []
        for _ in range(6):
            observation, *_ = env.last()
            played.append(black.act(observation))
            env.step(played[-1])
        return played

    assert moves(4) == moves(4)


def test_bad_weights_options_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="neither a bundled network"):
        resolve_weights("no-such-network")
    (tmp_path / "broken.pt").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="truncated or corrupt"):
        make_agent(f"alphazero:weights={tmp_path / 'broken.pt'}", GAME)
    with pytest.raises(ValueError, match="AlphaZeroAgent cannot count nodes"):
        AlphaZeroAgent(GAME, tmp_path / "broken.pt", Budget(nodes=10))


def test_bundled_weights_specs_build_the_network_search() -> None:
    nine = GameConfig(board_size=9)
    agent = make_agent("alphazero:weights=9x9,simulations=200", nine, seed=0)
    assert isinstance(agent.evaluator, NetworkEvaluator)
    assert agent.budget == Budget(simulations=200)
    assert agent.tree.options.leaves_per_round == 8
    batched = make_agent("alphazero:weights=9x9,batch=4,c=2.0", nine, seed=0)
    assert batched.tree.options.leaves_per_round == 4
    assert batched.tree.options.exploration == 2.0
    timed = make_agent("alphazero:time=0.5", nine, seed=0)
    assert timed.budget == Budget(time=0.5)  # the time alone is the budget
    assert make_agent("alphazero", nine, seed=0).budget.simulations == 200
    assert agent.tree.options.vcf_nodes == 200
    unchecked = make_agent("alphazero:vcf_nodes=0", nine, seed=0)
    assert unchecked.tree.options.vcf_nodes == 0


def test_a_network_under_rules_it_was_not_trained_for_is_warned_about():
    import warnings

    from agents.base import OtherRulesWarning
    from agents.specs.parse import make_agent
    from gomoku_env import GameConfig

    with pytest.warns(OtherRulesWarning, match=r"board size 15 \(here 19\)"):
        make_agent("alphazero:simulations=10", GameConfig(board_size=19))
    with pytest.warns(OtherRulesWarning, match=r"win length 5 \(here 4\)") as caught:
        make_agent("alphazero:weights=9x9,simulations=10", GameConfig(9, 4))
    assert len(caught) == 1 and "\n" not in str(caught[0].message)
    with pytest.warns(OtherRulesWarning, match=r"win length 5 \(here 4\)"):
        make_agent("ppo:weights=9x9", GameConfig(9, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_agent("alphazero:weights=9x9,simulations=10", GameConfig(board_size=9))
        make_agent("ppo:weights=9x9", GameConfig(board_size=9))


def test_a_game_s_moves_do_not_depend_on_the_games_played_before() -> None:
    """The network's outputs differ in their last bits with the batch a position is
    evaluated in, so a cache kept from earlier games changed which positions were
    batched together: the same seed could play other moves after other games (or in
    another arena worker). The cache is emptied with each reset."""
    from agents.game import play_game
    from agents.specs.parse import make_agent
    from gomoku_env import GameConfig

    config = GameConfig(board_size=9)
    spec = "alphazero:weights=9x9,simulations=24"

    def game(agent, opponent, seed):
        return play_game(agent, opponent, config, seeds=(seed, seed + 1)).moves

    fresh = make_agent(spec, config)
    alone = game(fresh, make_agent("heuristic", config), 7)
    used = make_agent(spec, config)
    game(used, make_agent("heuristic", config), 3)  # another game first
    assert used.network_evaluator.cache_size > 0 and len(used.network_evaluator._cache)
    used.reset(7)
    assert len(used.network_evaluator._cache) == 0  # nothing carried into the game
    assert game(used, make_agent("heuristic", config), 7) == alone
