"""IllegalActionCounter counts what reaches the env against the mask, and nothing else;
the AEC env's infos keep one shape from game to game, as Tianshou's buffers need."""

from __future__ import annotations

import contextlib
import doctest

import numpy as np

import gomoku_env
import gomoku_env.action_counter
from gomoku_env.action_counter import IllegalActionCounter


def play_random_game(env, rng: np.random.Generator) -> list[dict]:
    """Play uniformly random legal moves; return the infos the agents saw at the end."""
    env.reset(seed=int(rng.integers(1 << 30)))
    end_infos = []
    for _ in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            end_infos.append(info)
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return end_infos


def test_legal_games_count_every_action_and_no_illegal_one() -> None:
    env = IllegalActionCounter(gomoku_env.env(board_size=5, win_length=4))
    rng = np.random.default_rng(0)
    for _ in range(5):
        play_random_game(env, rng)
    assert env.illegal_actions == 0
    assert env.actions >= 5 * 7  # at least seven moves make four in a row


def test_occupied_off_board_and_non_integer_actions_are_counted() -> None:
    for bad in (12, 25, -1, "a"):
        env = IllegalActionCounter(gomoku_env.env(board_size=5, win_length=4))
        env.reset()
        env.step(12)
        # PettingZoo's bounds wrapper refuses off-board actions, after the count.
        with contextlib.suppress(AssertionError, ValueError, TypeError):
            env.step(bad)
        assert (env.actions, env.illegal_actions) == (2, 1), bad


def test_every_end_info_value_is_a_scalar_or_text() -> None:
    env = gomoku_env.env(board_size=5, win_length=4)
    rng = np.random.default_rng(1)
    lines = set()
    for _ in range(30):
        for info in play_random_game(env, rng):
            for key, value in info.items():
                assert np.asarray(value).shape == (), (key, value)
            lines.add(len(info["winning_line"].split()))
    assert {0, 4} <= lines or {4, 5} <= lines  # lines of different lengths were seen


def test_docstring_example_runs_as_written() -> None:
    result = doctest.testmod(gomoku_env.action_counter)
    assert result.attempted > 0 and result.failed == 0
