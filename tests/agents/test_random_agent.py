"""RandomAgent and the agent-spec basics."""

from __future__ import annotations

import numpy as np
import pytest

import gomoku_env
from agents import Agent, RandomAgent
from agents.specs.parse import make_agent, parse_spec


def play_game(seed: int, board_size: int = 7) -> list[int]:
    environment = gomoku_env.env(board_size=board_size)
    environment.reset(seed=seed)
    agents = {
        "black_0": RandomAgent(seed=seed),
        "white_0": RandomAgent(seed=seed + 100),
    }
    for agent in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        action = agents[agent].act(observation)
        assert observation["action_mask"][action] == 1
        environment.step(action)
    return environment.unwrapped.board.moves


def test_random_agent_is_an_agent_and_plays_legal_games_to_the_end() -> None:
    assert isinstance(RandomAgent(), Agent)
    moves = play_game(seed=1)
    assert len(moves) == len(set(moves)) >= 7


def test_same_seed_same_game_and_reset_reseeds() -> None:
    assert play_game(seed=5) == play_game(seed=5)
    assert play_game(seed=5) != play_game(seed=6)
    agent = RandomAgent(seed=0)
    observation = {"action_mask": np.ones(49, dtype=np.int8)}
    first = [agent.act(observation) for _ in range(10)]
    agent.reset(seed=0)
    assert [agent.act(observation) for _ in range(10)] == first


def test_uniform_over_the_legal_moves() -> None:
    agent = RandomAgent(seed=0)
    mask = np.zeros(25, dtype=np.int8)
    mask[[3, 7, 11]] = 1
    counts = np.bincount(
        [agent.act({"action_mask": mask}) for _ in range(3000)], minlength=25
    )
    assert set(np.flatnonzero(counts)) == {3, 7, 11}
    assert counts[[3, 7, 11]].min() > 900


def test_no_legal_move_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no legal action"):
        RandomAgent().act({"action_mask": np.zeros(25, dtype=np.int8)})


def test_specs_parse_typed_options_and_reject_bad_ones() -> None:
    assert parse_spec("mcts:simulations=1000,c=1.5,reuse=false,weights=9x9") == (
        "mcts",
        {"simulations": 1000, "exploration": 1.5, "reuse": False, "weights": "9x9"},
    )
    assert isinstance(make_agent("random", seed=3), RandomAgent)
    with pytest.raises(
        ValueError, match=r"unknown agent 'nobody'.*accepted names: .*random"
    ):
        make_agent("nobody")
    with pytest.raises(ValueError, match="bad option 'fast'"):
        parse_spec("random:fast")
    with pytest.raises(ValueError, match="unknown option 'depth' for agent 'random'"):
        make_agent("random:depth=3")
