"""The envs' options are declared once: the envs' defaults and checks are theirs."""

from __future__ import annotations

import dataclasses
import doctest
import inspect

import pytest

import gomoku_env.env_options
from gomoku_env.aec_env import raw_env
from gomoku_env.env_options import EnvOptions, LearnerOptions
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.vector_env import GomokuVectorEnv


def test_the_examples_in_the_docstring_hold() -> None:
    result = doctest.testmod(gomoku_env.env_options)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("env_class", "options"),
    [
        (raw_env, EnvOptions),
        (GomokuEnv, LearnerOptions),
        (GomokuVectorEnv, LearnerOptions),
    ],
)
def test_an_envs_keyword_defaults_are_its_options_defaults(env_class, options) -> None:
    parameters = inspect.signature(env_class).parameters
    for item in dataclasses.fields(options):
        if item.name in parameters and item.name != "opening":
            assert parameters[item.name].default == item.default, item.name


def test_every_option_says_what_it_means() -> None:
    for item in dataclasses.fields(LearnerOptions):
        assert item.metadata["help"], item.name


def test_a_learner_env_leaves_room_for_the_opponents_first_reply() -> None:
    assert EnvOptions(random_opening=3, max_moves=4).max_moves == 4
    with pytest.raises(ValueError, match="max_moves 4 leaves no move after the 4"):
        LearnerOptions(random_opening=3, max_moves=4)


def test_an_opening_is_kept_as_actions() -> None:
    assert EnvOptions(opening="a1 b1").opening == (210, 211)
    assert EnvOptions(opening=None).opening == ()


def test_an_episodes_opening_is_checked_against_the_move_limit() -> None:
    env = raw_env(board_size=5, max_moves=3)
    with pytest.raises(ValueError, match="max_moves 3 leaves no move after the 3"):
        env.reset(options={"opening": [0, 1, 2]})
