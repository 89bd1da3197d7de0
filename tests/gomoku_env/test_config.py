"""GameConfig, and the envs that take one instead of keyword options."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import gomoku_env
from gomoku_env import GameConfig, Rule
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.vector_env import GomokuVectorEnv


def test_from_options_defaults_and_keywords() -> None:
    assert GameConfig.from_options() == GameConfig()
    made = GameConfig.from_options(board_size=9, rule="standard")
    assert made == GameConfig(9, 5, Rule.STANDARD)


def test_from_options_passes_a_config_through() -> None:
    config = GameConfig(7, 4, "standard")
    assert GameConfig.from_options(config) is config


def test_from_options_refuses_config_and_keywords_together() -> None:
    with pytest.raises(ValueError, match="board_size"):
        GameConfig.from_options(GameConfig(9), board_size=9)


def test_from_options_refuses_a_config_of_the_wrong_type() -> None:
    with pytest.raises(TypeError, match="GameConfig"):
        GameConfig.from_options({"board_size": 9})


@pytest.mark.parametrize(
    "make",
    [
        lambda **kwargs: gomoku_env.env(**kwargs).unwrapped,
        lambda **kwargs: gomoku_env.raw_env(**kwargs),
        lambda **kwargs: GomokuEnv(**kwargs),
        lambda **kwargs: GomokuVectorEnv(num_envs=2, **kwargs),
    ],
)
def test_envs_take_a_config(make) -> None:
    config = GameConfig(9, 4, "standard")
    environment = make(config=config)
    assert environment.config is config
    with pytest.raises(ValueError, match="rule"):
        make(config=config, rule="freestyle")


def test_raw_env_with_config_plays_its_rules() -> None:
    environment = gomoku_env.raw_env(config=GameConfig(7, 3))
    environment.reset()
    for action in (0, 7, 1, 8, 2):
        environment.step(action)
    assert environment.infos["black_0"]["reason"] == "five"
    assert environment.infos["black_0"]["winning_line"] == "a7 b7 c7"


def test_make_vec_reaches_the_compiled_vector_env() -> None:
    vector = gymnasium.make_vec(gomoku_env.GYM_ENV_ID, num_envs=5, board_size=9)
    assert isinstance(vector.unwrapped, GomokuVectorEnv)
    observations, _ = vector.reset(seed=3)
    assert observations.shape == (5, 9, 9, 5)
    masks = vector.unwrapped.action_masks()
    actions = np.array([np.flatnonzero(mask)[0] for mask in masks])
    _, rewards, terminated, _, _ = vector.step(actions)
    assert rewards.shape == terminated.shape == (5,)
    vector.close()
