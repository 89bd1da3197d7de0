"""The three envs name the end of a game with the same info keys and value types."""

from __future__ import annotations

import numpy as np

import gomoku_env
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.outcome import END_INFO_KEYS
from gomoku_env.vector_env import GomokuVectorEnv


def _aec_end_info() -> dict:
    env = gomoku_env.env(board_size=5, win_length=4)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            return info
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    raise AssertionError("the game did not end")


def _gym_end_info() -> tuple[dict, list[dict]]:
    env = GomokuEnv(board_size=5, win_length=4, play_as="random")
    _, info = env.reset(seed=0)
    infos = [info]
    rng = np.random.default_rng(0)
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        infos.append(info)
        if terminated or truncated:
            return info, infos


def _vector_end_info() -> tuple[dict, list[dict]]:
    envs = GomokuVectorEnv(4, board_size=5, win_length=4, play_as="random")
    _, info = envs.reset(seed=0)
    infos = [info]
    rng = np.random.default_rng(0)
    for _ in range(40):
        masks = info["action_mask"].astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        *_, info = envs.step(actions)
        infos.append(info)
        if "_reason" in info and info["_reason"].any():
            return info, infos
    raise AssertionError("no game ended")


def test_the_three_envs_end_infos_have_the_same_keys_and_types() -> None:
    aec = _aec_end_info()
    gym, gym_infos = _gym_end_info()
    vector, vector_infos = _vector_end_info()
    assert set(END_INFO_KEYS) <= set(aec) and set(END_INFO_KEYS) <= set(gym)
    assert set(END_INFO_KEYS) <= set(vector)
    assert type(aec["moves"]) is int and type(gym["moves"]) is int
    assert np.issubdtype(vector["moves"].dtype, np.integer)
    # The learner's colour, on every step of both single-agent views.
    assert all(info["learner_color"] in ("black", "white") for info in gym_infos)
    for info in vector_infos:
        assert set(info["learner_color"]) <= {"black", "white"}
        assert info["learner_color"].shape == (4,)


def test_the_vector_winner_reads_against_the_ended_games_colour() -> None:
    envs = GomokuVectorEnv(8, board_size=5, win_length=4, play_as="random")
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(60):
        masks = info["action_mask"].astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        _, rewards, _, _, info = envs.step(actions)
        for game in np.flatnonzero(info.get("_winner", np.zeros(8, bool))):
            if info["winner"][game] is not None:
                won = info["winner"][game] == info["learner_color"][game]
                assert rewards[game] == (1.0 if won else -1.0)
                checked += 1
    assert checked >= 4
