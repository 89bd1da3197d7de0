"""The PettingZoo AEC env: PettingZoo's own checkers, then behaviour the docs promise."""

from __future__ import annotations

import pickle
import re
import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import gomoku_env
from gomoku_env import aec_env
from gomoku_env.notation import parse_moves
from gomoku_env.planes import PLANE_COUNT

# api_test warns about any dict observation; that is the only warning we accept.
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def run_without_unexpected_warnings(check, *args, **kwargs) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    unexpected = [
        str(w.message) for w in caught if str(w.message) not in EXPECTED_WARNINGS
    ]
    assert unexpected == []


@pytest.mark.parametrize("factory", [gomoku_env.env, gomoku_env.raw_env])
@pytest.mark.parametrize(
    "kwargs",
    [{"board_size": 9}, {"board_size": 5, "win_length": 4, "rule": "standard"}],
)
def test_pettingzoo_api_test(factory, kwargs: dict) -> None:
    run_without_unexpected_warnings(api_test, factory(**kwargs), num_cycles=300)


def test_pettingzoo_seed_test_with_random_openings() -> None:
    run_without_unexpected_warnings(
        seed_test,
        lambda: gomoku_env.env(board_size=9, random_opening=4),
        num_cycles=200,
    )


def test_pettingzoo_render_test_all_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    # "human" shows each move at render_fps: fast here, so the test stays quick.
    monkeypatch.setitem(aec_env.raw_env.metadata, "render_fps", 1000)

    def make(render_mode: str | None = None):
        return gomoku_env.env(board_size=7, render_mode=render_mode)

    run_without_unexpected_warnings(render_test, make)


def test_registered_in_pettingzoo_registry() -> None:
    environment = pettingzoo.make("aec", "gomoku_env/gomoku-v0", board_size=7)
    environment.reset(seed=0)
    assert environment.unwrapped.config.board_size == 7
    assert environment.possible_agents == ["black_0", "white_0"]


def test_raw_env_pickles_mid_game_with_its_state() -> None:
    environment = gomoku_env.raw_env(board_size=9)
    environment.reset(seed=3)
    for action in (40, 41, 30):
        environment.step(action)
    clone = pickle.loads(pickle.dumps(environment))
    assert clone.board == environment.board
    assert clone.agent_selection == environment.agent_selection == "white_0"
    for agent in environment.agents:
        original, copied = environment.observe(agent), clone.observe(agent)
        assert np.array_equal(original["observation"], copied["observation"])
        assert np.array_equal(original["action_mask"], copied["action_mask"])


def test_unwrapped_exposes_the_board() -> None:
    environment = gomoku_env.env(board_size=9, opening="e5 f6")
    environment.reset()
    board = environment.unwrapped.board
    assert board.moves == parse_moves("e5 f6", 9)
    assert isinstance(environment.unwrapped, gomoku_env.raw_env)


def test_spaces_are_built_once_and_match_observations_byte_for_byte() -> None:
    environment = gomoku_env.raw_env(board_size=11)
    environment.reset()
    for agent in environment.possible_agents:
        space = environment.observation_space(agent)
        assert space is environment.observation_space(agent)
        observation = environment.observe(agent)
        for key in ("observation", "action_mask"):
            assert observation[key].dtype == space[key].dtype == np.int8
            assert observation[key].shape == space[key].shape
        assert space.contains(observation)
    assert environment.observation_space("black_0")["observation"].shape == (
        11,
        11,
        PLANE_COUNT,
    )
    assert environment.action_space("black_0").n == 121


def test_planes_are_from_the_observers_point_of_view() -> None:
    environment = gomoku_env.raw_env(board_size=9)
    environment.reset()
    environment.step(40)  # black e5
    environment.step(10)  # white b8
    black = environment.observe("black_0")["observation"]
    white = environment.observe("white_0")["observation"]
    assert black[4, 4, 0] == 1 and black[1, 1, 1] == 1
    assert white[1, 1, 0] == 1 and white[4, 4, 1] == 1
    assert black[:, :, 2].sum() == white[:, :, 2].sum() == 1 and black[1, 1, 2] == 1
    assert black[:, :, 3].all() and not white[:, :, 3].any()


def test_action_mask_only_for_the_agent_to_move() -> None:
    environment = gomoku_env.raw_env(board_size=9)
    environment.reset()
    environment.step(40)
    assert not environment.observe("black_0")["action_mask"].any()
    mask = environment.observe("white_0")["action_mask"]
    assert mask.sum() == 80 and mask[40] == 0


def test_observations_are_copies_the_caller_may_modify() -> None:
    environment = gomoku_env.raw_env(board_size=9)
    environment.reset()
    observation = environment.observe("black_0")
    observation["observation"][:] = 1
    observation["action_mask"][:] = 0
    fresh = environment.observe("black_0")
    assert fresh["observation"][:, :, 0].sum() == 0
    assert fresh["action_mask"].sum() == 81


def play_out(environment, points: str) -> None:
    for action in parse_moves(points, environment.unwrapped.config.board_size):
        environment.step(action)


def test_win_rewards_and_end_info() -> None:
    environment = gomoku_env.env(board_size=9)
    environment.reset()
    play_out(environment, "a1 a9 b1 b9 c1 c9 d1 d9 e1")
    assert all(environment.terminations.values())
    assert environment.rewards == {"black_0": 1, "white_0": -1}
    info = environment.infos["white_0"]
    assert info["reason"] == "five" and info["winner"] == "black"
    assert info["winning_line"] == "a1 b1 c1 d1 e1"
    _, reward, termination, _, _ = environment.last()
    assert termination and reward == -1  # white is selected next and sees its loss


def test_draw_gives_zero_to_both() -> None:
    environment = gomoku_env.raw_env(board_size=5, win_length=5)
    environment.reset()
    rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]
    black = [
        r * 5 + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"
    ]
    white = [
        r * 5 + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "O"
    ]
    for index in range(25):
        environment.step((black if index % 2 == 0 else white)[index // 2])
    assert environment.infos["black_0"]["reason"] == "board_full"
    assert environment.rewards == {"black_0": 0, "white_0": 0}
    assert all(environment.terminations.values())


@pytest.mark.parametrize("action", [40, 81, -3])
def test_raw_env_illegal_move_ends_the_game_against_the_offender(action: int) -> None:
    environment = gomoku_env.raw_env(board_size=9)
    environment.reset()
    environment.step(40)
    environment.step(action)  # white: occupied or off the board
    assert environment.rewards == {"black_0": 0, "white_0": -1}
    assert environment.infos["white_0"]["reason"] == "illegal_move"
    assert str(action) in environment.infos["white_0"]["illegal_move"]
    assert environment.board.moves == [40]


def test_wrapped_env_illegal_move_ends_the_game_against_the_offender() -> None:
    environment = gomoku_env.env(board_size=9)
    environment.reset()
    environment.step(40)
    environment.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        environment.step(40)
    assert environment.rewards["white_0"] == -1
    assert all(environment.terminations.values())
    for agent in ("black_0", "white_0"):
        info = environment.infos[agent]
        assert info["reason"] == "illegal_move" and "40" in info["illegal_move"]
        assert info["winner"] is None and info["winning_line"] == ""
    _, reward, termination, _, info = environment.last()
    assert termination and reward == -1 and info["reason"] == "illegal_move"


def test_step_after_every_agent_is_done_is_a_clear_error() -> None:
    environment = gomoku_env.raw_env(board_size=9)
    environment.reset()
    play_out(environment, "a1 a9 b1 b9 c1 c9 d1 d9 e1")
    environment.step(None)
    environment.step(None)
    assert environment.agents == []
    assert not environment.observe("white_0")["action_mask"].any()
    with pytest.raises(RuntimeError, match=r"game is over.*reset"):
        environment.step(None)


def test_non_integer_action_raises_and_changes_nothing() -> None:
    environment = gomoku_env.raw_env(board_size=9)
    environment.reset()
    with pytest.raises(TypeError, match="'e5'"):
        environment.step("e5")
    assert environment.board.moves == [] and environment.agent_selection == "black_0"


def test_opening_by_notation_and_by_actions() -> None:
    by_text = gomoku_env.raw_env(board_size=15, opening="h8 i9 h9")
    by_actions = gomoku_env.raw_env(board_size=15, opening=[112, 98, 97])
    for environment in (by_text, by_actions):
        environment.reset()
        assert environment.board.moves == [112, 98, 97]
        assert environment.agent_selection == "white_0"


def test_opening_can_be_replaced_per_episode() -> None:
    environment = gomoku_env.raw_env(board_size=9, opening="e5")
    environment.reset(options={"opening": "a1 a2"})
    assert environment.board.moves == parse_moves("a1 a2", 9)
    environment.reset()
    assert environment.board.moves == parse_moves("e5", 9)


@pytest.mark.parametrize(
    ("opening", "message"),
    [
        ("h8 h8", "bad opening move 2 .* occupied by black"),
        ("h8 z9", "'z9' is off the 15x15 board"),
        ([112, 400], "bad opening move 2 \\(400\\): action 400 is off the 15x15 board"),
        ("a1 a15 b1 b15 c1 c15 d1 d15 e1", "already decides the game"),
        ("a1 a15 b1 b15 c1 c15 d1 d15 e1 e15", "game is already over"),
        ("h8 ??", "'\\?\\?' is not a point"),
        ([40.0], "opening move 1 must be an int action, got 40.0"),
        ([112, True], "opening move 2 must be an int action, got True"),
    ],
)
def test_bad_openings_are_rejected(opening, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gomoku_env.raw_env(board_size=15, opening=opening)


def test_random_opening_is_seeded_and_central() -> None:
    first = gomoku_env.raw_env(board_size=15, random_opening=4)
    second = gomoku_env.raw_env(board_size=15, random_opening=4)
    first.reset(seed=11)
    second.reset(seed=11)
    assert first.board.moves == second.board.moves and len(first.board.moves) == 4
    rows, cols = np.divmod(np.array(first.board.moves), 15)
    assert (abs(rows - 7) <= 2).all() and (abs(cols - 7) <= 2).all()
    openings = set()
    for seed in range(8):
        first.reset(seed=seed)
        openings.add(tuple(first.board.moves))
    assert len(openings) > 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"render_mode": "rgb"}, "unknown render_mode 'rgb'"),
        ({"random_opening": -1}, "random_opening must be an int >= 0, got -1"),
        ({"board_size": 3}, "board_size must be between"),
        ({"rule": "pro"}, "unknown rule 'pro'"),
    ],
)
def test_bad_options_are_rejected(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gomoku_env.raw_env(**kwargs)


def test_ansi_render_shows_coordinates_last_move_and_winning_line() -> None:
    environment = gomoku_env.raw_env(board_size=9, render_mode="ansi")
    environment.reset()
    play_out(environment, "a1 a9 b1 b9 c1 c9 d1 d9 e1")
    text = environment.render()
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghi")
    assert lines[1].split()[0] == "9" and lines[9].split()[0] == "1"
    assert "[X]" in lines[9] and lines[9].count("(X)") == 4
    assert lines[1].count("O") == 4


def test_render_without_mode_warns_and_returns_none() -> None:
    environment = gomoku_env.raw_env(board_size=9)
    environment.reset()
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert environment.render() is None


def test_docstring_channel_table_matches_the_code() -> None:
    doc = aec_env.__doc__
    table_rows = re.findall(r"^\| (\d+)\s+\|", doc, flags=re.MULTILINE)
    assert [int(row) for row in table_rows] == list(range(PLANE_COUNT))
    assert f"(board_size, board_size, {PLANE_COUNT})" in doc
    environment = gomoku_env.raw_env(board_size=9)
    for mode in environment.metadata["render_modes"]:
        assert f'"{mode}"' in doc
