"""Copies of the envs mid-game (``copy.deepcopy``, pickle) play on independently.

The observation planes are kept up to date move by move through views into one array; a
copy must get views into its own array, or its planes stop following its board.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import gomoku_env
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.planes import ObservationPlanes

COPIERS = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda environment: pickle.loads(pickle.dumps(environment)),
}


def assert_planes_follow_the_board(environment) -> None:
    """The env's planes equal planes rebuilt from its board."""
    unwrapped = environment.unwrapped
    rebuilt = ObservationPlanes.from_board(unwrapped.board)
    assert np.array_equal(unwrapped.game.planes.planes, rebuilt.planes)


def legal_actions(environment, count: int) -> list[int]:
    return list(np.flatnonzero(environment.unwrapped.board.legal_mask())[:count])


@pytest.mark.parametrize("copier", COPIERS.values(), ids=COPIERS.keys())
@pytest.mark.parametrize("factory", [gomoku_env.env, gomoku_env.raw_env])
def test_aec_env_copy_mid_game_plays_on_with_its_own_planes(factory, copier) -> None:
    environment = factory(board_size=9)
    environment.reset(seed=0)
    for action in (40, 41, 30):
        environment.step(action)
    clone = copier(environment)
    for action in legal_actions(clone, 3):
        clone.step(action)
    assert len(clone.unwrapped.board.moves) == 6
    assert_planes_follow_the_board(clone)
    assert clone.observe(clone.agent_selection)["observation"][..., :2].sum() == 6
    assert environment.unwrapped.board.moves == [40, 41, 30]
    assert_planes_follow_the_board(environment)


@pytest.mark.parametrize("copier", COPIERS.values(), ids=COPIERS.keys())
def test_gym_env_copy_mid_game_plays_on_with_its_own_planes(copier) -> None:
    environment = GomokuEnv(opponent="random", board_size=9)
    environment.reset(seed=0)
    environment.step(40)
    moves_before = list(environment.board.moves)
    clone = copier(environment)
    for action in legal_actions(clone, 2):
        observation, *_ = clone.step(action)
    assert len(clone.board.moves) == 6
    assert_planes_follow_the_board(clone)
    assert observation[..., :2].sum() == 6
    assert environment.board.moves == moves_before
    assert_planes_follow_the_board(environment)
