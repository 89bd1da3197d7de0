"""The ``ppo`` agent spec: the shipped 9×9 policy, policy files, and clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import gomoku_env
from agents.base import RandomAgent
from agents.ppo.policy import WEIGHTS
from agents.specs.parse import make_agent
from agents.training.head_to_head import play_match
from agents.training.torch_policy import PolicyNetwork, PolicyShape, save_policy
from gomoku_env.config import GameConfig
from gomoku_env.game_state import GameState
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.kernels import WHITE

NINE = GameConfig(board_size=9)


def test_the_shipped_policy_beats_random_clearly_on_9x9() -> None:
    assert "9x9" in WEIGHTS.names()
    assert WEIGHTS.file("9x9").stat().st_size < 2 * 1024 * 1024  # a small file
    agent = make_agent("ppo:weights=9x9", NINE, seed=0)
    score = play_match(agent, RandomAgent(seed=1), NINE, 40, seed=2)
    assert score.score >= 0.95, score


def test_the_board_size_picks_the_shipped_policy_and_plays_in_the_aec_loop() -> None:
    agent = make_agent("ppo", NINE, seed=0)
    env = gomoku_env.env(board_size=9)
    env.reset(seed=0)
    random = RandomAgent(seed=0)
    for name in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        player = agent if name == "black_0" else random
        action = player.act(observation)
        assert observation["action_mask"][action] == 1
        env.step(action)
    assert info["reason"] in ("five", "board_full")


def test_a_policy_file_from_the_recipe_is_a_spec(tmp_path: Path) -> None:
    path = save_policy(
        tmp_path / "policy.pt", PolicyNetwork(PolicyShape(4, 1)), GameConfig(7, 4)
    )
    agent = make_agent(f"ppo:weights={path}", GameConfig(7, 4))
    game = GameState(GameConfig(7, 4))
    game.play(24)
    observation = {
        "observation": game.observation(WHITE),
        "action_mask": game.legal_mask(),
    }
    assert agent.act(observation) in set(range(49)) - {24}


@pytest.mark.parametrize(
    ("spec", "size", "message"),
    [
        ("ppo", 15, "no PPO policy is shipped for 15x15"),
        ("ppo:weights=nowhere.pt", 9, "neither a bundled PPO policy"),
        ("ppo:temperature=1", 9, "temperature"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, size: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, GameConfig(board_size=size))


def test_the_shipped_policy_is_a_gymnasium_opponent_that_respects_the_mask() -> None:
    env = GomokuEnv(opponent="ppo:weights=9x9", board_size=9, play_as="white")
    observation, info = env.reset(seed=0)
    assert observation[..., 1].sum() == 1  # the policy opened as black
    terminated = False
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        observation, reward, terminated, _, info = env.step(int(legal[0]))
    assert reward in (-1.0, 0.0, 1.0) and "illegal_move" not in info
