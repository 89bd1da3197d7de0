"""Renju in the PettingZoo env: the forbidden option, plane 4, end info, full games."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import gomoku_env
from agents import RandomAgent
from gomoku_env.kernels import BLACK
from gomoku_env.notation import parse_moves
from gomoku_env.planes import FORBIDDEN, ObservationPlanes
from tests.gomoku_env.test_aec_env import run_without_unexpected_warnings
from tests.renju_twin import reasons

# Black h8 h9 i10 j10 (white far away): h10 is a double three for black, who is to move.
DOUBLE_THREE = "h8 a1 h9 a3 i10 a5 j10 o1"
H10 = parse_moves("h10", 15)[0]


@pytest.mark.parametrize("forbidden", ["mask", "lose"])
def test_pettingzoo_api_test_under_renju(forbidden: str) -> None:
    env = gomoku_env.env(board_size=9, rule="renju", forbidden=forbidden)
    run_without_unexpected_warnings(api_test, env, num_cycles=300)


def test_pettingzoo_seed_test_under_renju_with_random_openings() -> None:
    run_without_unexpected_warnings(
        seed_test,
        lambda: gomoku_env.env(board_size=9, rule="renju", random_opening=6),
        num_cycles=100,
    )


def test_raw_env_pickles_mid_game_with_its_forbidden_points() -> None:
    env = gomoku_env.raw_env(rule="renju", opening=DOUBLE_THREE)
    env.reset()
    clone = pickle.loads(pickle.dumps(env))
    assert clone.observe("black_0")["action_mask"][H10] == 0
    clone.step(H10)
    assert clone.infos["black_0"]["reason"] == "illegal_move"


def test_mask_mode_hides_forbidden_points_and_shows_them_on_plane_4() -> None:
    env = gomoku_env.raw_env(rule="renju", opening=DOUBLE_THREE)
    env.reset()
    observation = env.observe("black_0")
    assert observation["action_mask"][H10] == 0
    assert observation["observation"][:, :, FORBIDDEN].ravel()[H10] == 1
    assert observation["action_mask"].sum() == 225 - 8 - 1
    assert not env.observe("white_0")["observation"][:, :, FORBIDDEN].any()
    env.step(parse_moves("a7", 15)[0])
    assert not env.observe("white_0")["observation"][:, :, FORBIDDEN].any()
    assert not env.observe("black_0")["observation"][:, :, FORBIDDEN].any()


def test_lose_mode_keeps_forbidden_points_in_the_mask_and_on_plane_4() -> None:
    env = gomoku_env.raw_env(rule="renju", forbidden="lose", opening=DOUBLE_THREE)
    env.reset()
    observation = env.observe("black_0")
    assert observation["action_mask"][H10] == 1
    assert observation["observation"][:, :, FORBIDDEN].ravel()[H10] == 1


def test_playing_a_forbidden_point_is_illegal_under_mask() -> None:
    env = gomoku_env.raw_env(rule="renju", opening=DOUBLE_THREE)
    env.reset()
    env.step(H10)
    assert env.terminations == {"black_0": True, "white_0": True}
    assert env.rewards == {"black_0": -1, "white_0": 0}
    info = env.infos["black_0"]
    assert info["reason"] == "illegal_move"
    assert (
        "forbidden to black" in info["illegal_move"]
        and "double_three" in (info["illegal_move"])
    )
    assert env.board.cells[H10] == 0  # nothing was played


def test_wrapped_env_ends_the_game_on_a_masked_forbidden_point() -> None:
    env = gomoku_env.env(rule="renju", opening=DOUBLE_THREE)
    env.reset()
    env.step(H10)
    assert env.terminations["black_0"]
    assert env.rewards["black_0"] == -1


@pytest.mark.parametrize(
    ("opening", "point", "reason"),
    [
        (DOUBLE_THREE, "h10", "forbidden_double_three"),
        ("h8 a1 h9 a3 h10 a5 i7 a7 j7 a9 k7 a11", "h7", "forbidden_double_four"),
        ("a1 a15 b1 b15 c1 c15 e1 e15 f1 o8", "d1", "forbidden_overline"),
    ],
)
def test_lose_mode_ends_the_game_with_the_forbidden_shape(
    opening: str, point: str, reason: str
) -> None:
    env = gomoku_env.raw_env(rule="renju", forbidden="lose", opening=opening)
    env.reset()
    env.step(parse_moves(point, 15)[0])
    assert env.rewards == {"black_0": -1, "white_0": 1}
    for agent in ("black_0", "white_0"):
        info = env.infos[agent]
        assert info["reason"] == reason
        assert info["winner"] == "white"
        assert info["winning_line"] == ""


def test_black_five_wins_under_renju() -> None:
    env = gomoku_env.raw_env(rule="renju", opening="h8 a1 h9 a3 h10 a5 h11 a7")
    env.reset()
    env.step(parse_moves("h12", 15)[0])
    assert env.infos["black_0"]["reason"] == "five"
    assert env.rewards == {"black_0": 1, "white_0": -1}


def test_bad_renju_options_are_rejected() -> None:
    with pytest.raises(ValueError, match="'forfeit'"):
        gomoku_env.raw_env(rule="renju", forbidden="forfeit")
    with pytest.raises(ValueError, match="got 4"):
        gomoku_env.raw_env(rule="renju", win_length=4)
    with pytest.raises(ValueError, match="opening"):
        gomoku_env.raw_env(rule="renju", opening=DOUBLE_THREE + " h10")


def test_other_rules_leave_plane_4_empty() -> None:
    env = gomoku_env.raw_env(rule="freestyle", opening=DOUBLE_THREE)
    env.reset()
    observation = env.observe("black_0")
    assert observation["action_mask"][H10] == 1
    assert not observation["observation"][:, :, FORBIDDEN].any()


def _play_random_game(env, seed: int) -> tuple[str, int]:
    """Play one game; check black's mask at every black turn against the twin."""
    size = env.unwrapped.config.board_size
    players = {
        "black_0": RandomAgent(seed=seed),
        "white_0": RandomAgent(seed=seed + 100),
    }
    forbidden_seen = 0
    for agent in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if agent == "black_0":
            truth = np.array(
                [r is not None for r in reasons(env.unwrapped.board.cells, size)]
            )
            mask = observation["action_mask"].astype(bool)
            plane = observation["observation"][:, :, FORBIDDEN].ravel().astype(bool)
            assert not (mask & truth).any()
            assert np.array_equal(plane, truth)
            rebuilt = ObservationPlanes.from_board(env.unwrapped.board).view(BLACK)
            assert np.array_equal(observation["observation"], rebuilt)
            forbidden_seen += int(truth.sum())
        env.step(players[agent].act(observation))
    return info["reason"], forbidden_seen


def test_full_games_never_offer_black_a_forbidden_point() -> None:
    seen = 0
    for seed in range(4):
        env = gomoku_env.env(board_size=11, rule="renju")
        env.reset(seed=seed)
        reason, forbidden = _play_random_game(env, seed)
        assert reason in ("five", "board_full", "no_legal_move")
        seen += forbidden
    assert seen > 0, "the games should meet some forbidden points"


# A 6×6 game whose last white move (f4) leaves black only d6 and a3, both overlines.
CROWDED = (
    "c5 e5 a4 f5 d4 d2 b3 c3 a6 c4 b5 d5 b1 b4 e2 c1 e6 d1 c6 c2 f6 e1 a1 f1 a5 f3 "
    "b6 b2 d3 e4 a2 e3 f2"
)


def test_no_legal_move_for_black_is_a_draw_under_mask() -> None:
    env = gomoku_env.raw_env(board_size=6, rule="renju", opening=CROWDED)
    env.reset()
    env.step(parse_moves("f4", 6)[0])
    assert env.terminations["black_0"]
    assert env.infos["black_0"]["reason"] == "no_legal_move"
    assert env.rewards == {"black_0": 0, "white_0": 0}


def test_no_legal_move_does_not_apply_under_lose() -> None:
    env = gomoku_env.raw_env(
        board_size=6, rule="renju", forbidden="lose", opening=CROWDED
    )
    env.reset()
    env.step(parse_moves("f4", 6)[0])
    observation = env.observe("black_0")
    assert set(np.flatnonzero(observation["action_mask"])) == set(
        parse_moves("d6 a3", 6)
    )
    env.step(parse_moves("d6", 6)[0])
    assert env.infos["black_0"]["reason"] == "forbidden_overline"
