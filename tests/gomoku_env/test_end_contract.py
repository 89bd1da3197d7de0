"""The end-of-game contract: the same games through the AEC, Gymnasium and vector envs
report the same ``reason``, ``winner``, ``winning_line``, ``moves`` (and
``illegal_move``), the same end (terminated or truncated) and the same reward for black.

Black is the learner of the single-agent envs and white their scripted opponent, so
every env plays the same moves. The vector env masks renju's forbidden points, so the
foul (forbidden="lose") is played by the AEC and Gymnasium envs only; all three play the
masked variant, where the forbidden point is an illegal action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import gomoku_env
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.outcome import (
    END_INFO_KEYS,
    END_REASONS,
    ILLEGAL_MOVE_KEY,
    NO_LINE,
    NOT_ENDED,
    line_key,
    line_texts,
)
from gomoku_env.vector_env import GomokuVectorEnv

ALL_ENVS = ("aec", "gym", "vector")
CROSSING = 7 * 15 + 7  # h8: black's two twos below cross there (a double three)


@dataclass(frozen=True)
class Scenario:
    """Moves of black (the learner) and white (the scripted opponent), the env
    options, the ending every env must report and which envs can play it."""

    black: tuple[int, ...]
    white: tuple[int, ...]
    options: dict[str, Any]
    end: str
    black_reward: float
    info: dict[str, Any]
    envs: tuple[str, ...] = ALL_ENVS


SCENARIOS = {
    "five": Scenario(
        (0, 1, 2, 3, 4),
        (18, 19, 20, 21),
        {"board_size": 9},
        "terminated",
        1.0,
        {"reason": "five", "winner": "black", "winning_line": "a9 b9 c9 d9 e9"},
    ),
    "opponent_five": Scenario(
        (30, 31, 32, 33, 50),
        (0, 1, 2, 3, 4),
        {"board_size": 9},
        "terminated",
        -1.0,
        {"reason": "five", "winner": "white", "winning_line": "a9 b9 c9 d9 e9"},
    ),
    "illegal_action": Scenario(
        (40, 41),
        (41,),
        {"board_size": 9},
        "terminated",
        -1.0,
        {
            "reason": "illegal_move",
            "winner": None,
            "winning_line": "",
            ILLEGAL_MOVE_KEY: "action 41 is occupied by white",
        },
    ),
    "forbidden_point_masked": Scenario(
        (7 * 15 + 5, 7 * 15 + 6, 5 * 15 + 7, 6 * 15 + 7, CROSSING),
        (0, 2, 4, 6),
        {"board_size": 15, "rule": "renju"},
        "terminated",
        -1.0,
        {
            "reason": "illegal_move",
            "winner": None,
            "winning_line": "",
            ILLEGAL_MOVE_KEY: (
                f"action {CROSSING} (h8) is forbidden to black under renju: "
                "double_three"
            ),
        },
    ),
    "renju_foul": Scenario(
        (7 * 15 + 5, 7 * 15 + 6, 5 * 15 + 7, 6 * 15 + 7, CROSSING),
        (0, 2, 4, 6),
        {"board_size": 15, "rule": "renju", "forbidden": "lose"},
        "terminated",
        -1.0,
        {"reason": "forbidden_double_three", "winner": "white", "winning_line": ""},
        envs=("aec", "gym"),
    ),
    "board_full": Scenario(
        (1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 16, 18, 21),
        (0, 6, 7, 12, 13, 15, 17, 19, 20, 22, 23, 24),
        {"board_size": 5, "win_length": 5},
        "terminated",
        0.0,
        {"reason": "board_full", "winner": None, "winning_line": ""},
    ),
    "move_limit": Scenario(
        (40, 42, 50),
        (41, 0, 1),
        {"board_size": 9, "max_moves": 6},
        "truncated",
        0.0,
        {"reason": "move_limit", "winner": None, "winning_line": ""},
    ),
}


def scripted(moves: Iterable[int]) -> Callable[[np.ndarray, np.ndarray], int]:
    """An opponent that plays ``moves`` in order, whatever the position."""
    replies = iter(moves)
    return lambda planes, mask: next(replies)


def play_aec(scenario: Scenario) -> tuple[str, float, dict[str, Any]]:
    env = gomoku_env.env(**scenario.options)
    env.reset(seed=0)
    pairs = zip(scenario.black, scenario.white, strict=False)
    moves = [move for pair in pairs for move in pair]
    moves += scenario.black[len(scenario.white) :]
    for action in moves:
        env.step(action)
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
    assert env.infos["black_0"] == env.infos["white_0"]
    truncated = all(env.truncations.values())
    assert truncated != any(env.terminations.values())
    end = "truncated" if truncated else "terminated"
    return end, float(env.rewards["black_0"]), env.infos["black_0"]


def play_gym(scenario: Scenario) -> tuple[str, float, dict[str, Any]]:
    env = GomokuEnv(scripted(scenario.white), play_as="black", **scenario.options)
    env.reset(seed=0)
    for action in scenario.black:
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert terminated != truncated
    return ("truncated" if truncated else "terminated"), reward, info


def play_vector(scenario: Scenario) -> tuple[str, float, dict[str, Any]]:
    env = GomokuVectorEnv(
        1, scripted(scenario.white), play_as="black", **scenario.options
    )
    env.reset(seed=0)
    for action in scenario.black:
        _, rewards, terminated, truncated, info = env.step(np.array([action]))
        if terminated[0] or truncated[0]:
            break
    assert terminated[0] != truncated[0] and info["_final_obs"][0]
    reported = {key: info[key][0] for key in info if info.get(f"_{key}", [0])[0]}
    end = "truncated" if truncated[0] else "terminated"
    return end, float(rewards[0]), reported


PLAYERS = {"aec": play_aec, "gym": play_gym, "vector": play_vector}


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_env_reports_the_same_end_of_game(name: str) -> None:
    scenario = SCENARIOS[name]
    expected_keys = set(END_INFO_KEYS) | set(scenario.info)
    moves = len(scenario.black) + len(scenario.white)
    if ILLEGAL_MOVE_KEY in scenario.info:
        moves -= 1  # the illegal action places no stone
    expected = {**scenario.info, "moves": moves}
    for env_name in scenario.envs:
        end, reward, info = PLAYERS[env_name](scenario)
        contract = {key: info[key] for key in expected_keys if key in info}
        assert contract == expected, env_name
        assert (end, reward) == (scenario.end, scenario.black_reward), env_name
        assert info["reason"] in END_REASONS
        assert (ILLEGAL_MOVE_KEY in info) == (ILLEGAL_MOVE_KEY in scenario.info)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: gomoku_env.env(board_size=9, max_moves=0), ValueError, ">= 1"),
        (lambda: GomokuEnv(board_size=9, max_moves=82), ValueError, "<= 81"),
        (lambda: GomokuVectorEnv(2, board_size=9, max_moves=1.5), TypeError, "1.5"),
        (
            lambda: gomoku_env.env(board_size=9, opening="e5 e6 e7", max_moves=3),
            ValueError,
            "max_moves 3 leaves no move after the 3 stones",
        ),
        (
            lambda: GomokuEnv(board_size=9, random_opening=2, max_moves=3),
            ValueError,
            "max_moves 3 leaves no move",
        ),
    ],
)
def test_max_moves_is_checked(
    make: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make()


def test_a_truncated_vector_game_starts_again_in_the_same_step() -> None:
    env = GomokuVectorEnv(3, board_size=9, max_moves=4)
    env.reset(seed=1)
    for _ in range(2):
        _, rewards, terminated, truncated, info = env.step(
            np.array([np.flatnonzero(mask)[0] for mask in env.action_masks()])
        )
    assert truncated.all() and not terminated.any() and not rewards.any()
    assert info["_final_obs"].all() and list(info["reason"]) == ["move_limit"] * 3
    assert (env.batch.move_count <= 1).all()  # new games (the opponent may open)


def test_line_texts_word_every_line_a_winning_stone_can_make() -> None:
    """Lines of win_length to 2 * win_length - 1 stones have their text; no longer
    line, no line off the board and no game that goes on has one."""
    texts = line_texts(9, 5)
    assert texts[NO_LINE] == "" and texts[NOT_ENDED] is None
    assert texts[line_key(9, 0, 0, 9)] == "a9 b9 c9 d9 e9 f9 g9 h9 i9"
    assert texts[line_key(9, 4, 3, 5)] == "e9 d8 c7 b6 a5"  # down and to the left
    assert texts[line_key(9, 3, 3, 5)] is None  # would leave the board
    assert texts[line_key(9, 0, 1, 4)] is None  # shorter than five
    small = line_texts(7, 3)
    assert small[line_key(7, 0, 2, 5)] == "a7 b6 c5 d4 e3"
    assert small[line_key(7, 0, 2, 6)] is None  # longer than 2 * 3 - 1
