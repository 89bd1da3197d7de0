"""The Gymnasium env under Stable-Baselines3's env checker and sb3-contrib's mask helpers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_checker import check_env

from gomoku_env.gym_env import GomokuEnv


@pytest.mark.parametrize("channels_first", [False, True])
def test_sb3_check_env_passes(channels_first: bool) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(GomokuEnv(board_size=7, channels_first=channels_first), warn=True)
    # only the "int8 planes are no uint8 image" advice, met by the custom extractor
    assert all("image" in str(warning.message) for warning in caught)


def test_mask_method_and_info_mask_agree_at_every_step() -> None:
    env = GomokuEnv(board_size=5, win_length=4, play_as="white")
    _, info = env.reset(seed=2)
    assert is_masking_supported(env)
    terminated = False
    while not terminated:
        masks = get_action_masks(env)
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        _, _, terminated, _, info = env.step(int(np.flatnonzero(masks)[0]))
    assert not get_action_masks(env).any() and not info["action_mask"].any()
