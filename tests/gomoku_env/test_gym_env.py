"""The single-agent Gymnasium env: checkers, seats, rewards, illegal actions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gomoku_env
from agents import RandomAgent
from gomoku_env.errors import IllegalMoveError
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.planes import FORBIDDEN, PLANE_COUNT


def play_random_episode(env: GomokuEnv, seed: int) -> list[tuple]:
    """Observations, rewards and flags of one episode of seeded random legal actions."""
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    trace = [(observation.tobytes(), info["learner_color"])]
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        observation, reward, terminated, _, info = env.step(action)
        trace.append((observation.tobytes(), reward, terminated))
    return trace


@pytest.mark.parametrize("channels_first", [False, True])
def test_gymnasium_check_env_passes(channels_first: bool) -> None:
    env = gymnasium.make(
        gomoku_env.GYM_ENV_ID,
        board_size=7,
        channels_first=channels_first,
        render_mode="ansi",
    )
    check_env(env.unwrapped, skip_render_check=False)


def test_registered_on_import_and_made_with_options() -> None:
    env = gymnasium.make(
        gomoku_env.GYM_ENV_ID,
        board_size=9,
        win_length=4,
        rule="standard",
        play_as="white",
    )
    observation, info = env.reset(seed=0)
    assert observation.shape == (9, 9, PLANE_COUNT)
    assert env.unwrapped.config.win_length == 4
    assert info["learner_color"] == "white"


def test_learner_as_white_first_sees_the_opponents_first_move() -> None:
    env = GomokuEnv(board_size=9, play_as="white")
    observation, info = env.reset(seed=3)
    assert observation[..., 0].sum() == 0  # no stone of the learner yet
    assert observation[..., 1].sum() == 1  # one opponent stone
    assert observation[..., 3].sum() == 0  # the learner is not black
    assert np.array_equal(
        observation[..., 2], observation[..., 1]
    )  # it is the last move
    assert info["moves"] == 1 and info["action_mask"].sum() == 80


def test_channels_first_is_the_transpose_of_channels_last() -> None:
    first = GomokuEnv(board_size=9, channels_first=True)
    last = GomokuEnv(board_size=9)
    for env in (first, last):
        env.reset(seed=5)
        env.step(40)
    assert np.array_equal(first._observation(), last._observation().transpose(2, 0, 1))


@pytest.mark.parametrize("play_as", ["black", "white", "random"])
def test_seeds_reproduce_episodes_exactly(play_as: str) -> None:
    env = GomokuEnv(board_size=7, play_as=play_as)
    first = [play_random_episode(env, seed) for seed in range(3)]
    second = [
        play_random_episode(GomokuEnv(board_size=7, play_as=play_as), s)
        for s in range(3)
    ]
    assert first == second
    assert first[0] != first[1]


def test_random_seat_gives_both_colours() -> None:
    env = GomokuEnv(board_size=7, play_as="random")
    colours = {env.reset(seed=seed)[1]["learner_color"] for seed in range(20)}
    assert colours == {"black", "white"}


class MaskSpy:
    """A callable opponent that records the masks it is shown and plays randomly."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)
        self.masks: list[np.ndarray] = []

    def __call__(self, planes: np.ndarray, mask: np.ndarray) -> int:
        self.masks.append(mask.copy())
        return int(self.rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("play_as", ["black", "white"])
def test_opponent_never_asked_to_move_on_a_full_board(play_as: str) -> None:
    spy = MaskSpy()
    env = GomokuEnv(opponent=spy, board_size=5, win_length=5, play_as=play_as)
    reasons = set()
    for seed in range(40):
        play_random_episode(env, seed)
        reasons.add(env.board.is_full)
    assert True in reasons  # some episodes filled the board (draws)
    assert all(mask.sum() > 0 for mask in spy.masks)


def test_draw_on_a_full_board_rewards_zero() -> None:
    env = GomokuEnv(board_size=5, win_length=5)
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        terminated, info = False, {}
        while not terminated:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, terminated, _, info = env.step(action)
        if info["reason"] == "board_full":
            assert reward == 0.0 and not env.action_masks().any()
            return
    pytest.fail("no drawn game in 40 random games on 5x5")


def scripted(actions: list[int]):
    moves = iter(actions)
    return lambda planes, mask: next(moves)


def test_learner_five_wins_plus_one_and_opponent_five_loses_minus_one() -> None:
    env = GomokuEnv(opponent=scripted([20, 21, 22, 23]), board_size=9, play_as="black")
    env.reset(seed=0)
    rewards = [env.step(action)[1] for action in (0, 1, 2, 3)]
    _, reward, terminated, _, info = env.step(4)
    assert rewards == [0.0] * 4 and reward == 1.0 and terminated
    assert info["reason"] == "five" and info["winning_line"] == "a9 b9 c9 d9 e9"

    env = GomokuEnv(opponent=scripted([0, 1, 2, 3, 4]), board_size=9, play_as="white")
    env.reset(seed=0)
    for action in (70, 71, 72):
        assert env.step(action)[1] == 0.0
    _, reward, terminated, _, info = env.step(60)
    assert reward == -1.0 and terminated and info["winner"] == "black"


def test_illegal_action_lose_ends_the_episode_with_minus_one() -> None:
    env = GomokuEnv(board_size=9)
    env.reset(seed=0)
    env.step(40)
    _, reward, terminated, _, info = env.step(40)
    assert reward == -1.0 and terminated
    assert "occupied" in info["illegal_move"] and not info["action_mask"].any()
    assert info["reason"] == "illegal_move" and info["winner"] is None
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_action_raise_leaves_the_state_unchanged() -> None:
    env = GomokuEnv(board_size=9, illegal_action="raise")
    env.reset(seed=0)
    env.step(40)
    moves = list(env.board.moves)
    with pytest.raises(IllegalMoveError, match="occupied"):
        env.step(40)
    with pytest.raises(IllegalMoveError, match="off the 9x9 board"):
        env.step(81)
    with pytest.raises(TypeError, match="int"):
        env.step("e5")
    assert env.board.moves == moves


def test_illegal_action_random_plays_a_legal_move_and_reports_it() -> None:
    env = GomokuEnv(board_size=9, illegal_action="random")
    env.reset(seed=0)
    env.step(40)
    _, reward, terminated, _, info = env.step(40)
    assert not terminated and reward == 0.0
    assert info["replaced_action"] != 40 and info["replaced_action"] in env.board.moves
    assert "occupied" in info["illegal_move"]
    assert len(env.board.moves) == 4


def test_agent_and_spec_opponents() -> None:
    for opponent in (RandomAgent(seed=1), "random"):
        env = GomokuEnv(opponent=opponent, board_size=7)
        assert len(play_random_episode(env, 0)) > 3


def test_opponent_is_reseeded_by_reset() -> None:
    agent = RandomAgent()
    env = GomokuEnv(opponent=agent, board_size=7)
    assert play_random_episode(env, 4) == play_random_episode(env, 4)


def test_illegal_opponent_action_is_a_clear_error() -> None:
    env = GomokuEnv(opponent=lambda planes, mask: 0, board_size=9, play_as="white")
    env.reset(seed=0)
    with pytest.raises(IllegalMoveError, match=r"opponent .* illegal action"):
        env.step(1)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"opponent": 3}, TypeError, "opponent must be"),
        ({"opponent": "nobody"}, ValueError, "unknown agent 'nobody'"),
        ({"play_as": "red"}, ValueError, "play_as 'red'"),
        ({"illegal_action": "ignore"}, ValueError, "illegal_action 'ignore'"),
        ({"render_mode": "window"}, ValueError, "render_mode 'window'"),
        ({"board_size": 3}, ValueError, "board_size"),
        ({"random_opening": 13}, ValueError, "random_opening 13 is too many"),
        ({"random_opening": 1.5}, TypeError, "random_opening must be an int"),
    ],
)
def test_bad_arguments_are_clear_errors(
    kwargs: dict, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        GomokuEnv(**kwargs)


def test_ansi_render_shows_the_board() -> None:
    env = GomokuEnv(board_size=9, render_mode="ansi")
    env.reset(seed=0)
    env.step(40)
    text = env.render()
    assert "[O]" in text and " X " in text


def test_renju_masks_black_forbidden_points_and_shows_them() -> None:
    env = GomokuEnv(
        opponent=scripted([0, 2, 4, 6]), board_size=15, rule="renju", play_as="black"
    )
    env.reset(seed=0)
    for action in (7 * 15 + 5, 7 * 15 + 6, 5 * 15 + 7, 6 * 15 + 7):
        env.step(action)  # two twos that cross at (7, 7): a double three there
    crossing = 7 * 15 + 7
    assert env.board.forbidden_reason(crossing) == "double_three"
    assert env._observation()[7, 7, FORBIDDEN] == 1
    assert not env.action_masks()[crossing]
    _, reward, terminated, _, info = env.step(crossing)
    assert reward == -1.0 and terminated and "forbidden" in info["illegal_move"]


def test_rgb_array_render_is_a_picture_of_the_board() -> None:
    env = GomokuEnv(board_size=9, render_mode="rgb_array")
    env.reset(seed=0)
    empty = env.render()
    env.step(40)
    picture = env.render()
    env.close()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8
    assert not np.array_equal(picture, empty)


class FailingOpponent:
    """Plays the first legal cell, then fails on its ``fail_at``-th call."""

    def __init__(self, fail_at: int, illegal: bool) -> None:
        self.fail_at, self.illegal, self.calls = fail_at, illegal, 0

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        self.calls += 1
        if self.calls == self.fail_at:
            if self.illegal:
                return int(np.flatnonzero(observation["action_mask"] == 0)[0])
            raise RuntimeError("opponent crashed")
        return int(np.flatnonzero(observation["action_mask"])[0])


@pytest.mark.parametrize(
    ("illegal", "error", "message"),
    [(True, IllegalMoveError, "illegal action"), (False, RuntimeError, "crashed")],
)
def test_opponent_failure_ends_the_episode_never_swaps_colours(
    illegal: bool, error: type, message: str
) -> None:
    env = GomokuEnv(opponent=FailingOpponent(2, illegal), board_size=9)
    env.reset(seed=0)
    env.step(40)
    with pytest.raises(error, match=message):
        env.step(50)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match=r"opponent failed.*call reset"):
        env.step(60)
    assert env.board.moves.count(60) == 0
    env.opponent.fail_at = 0
    observation, _ = env.reset(seed=0)
    observation, *_ = env.step(40)
    assert observation[4, 4, 0] == 1 and observation[..., 1].sum() == 1


def test_opponent_failure_in_reset_ends_the_episode() -> None:
    env = GomokuEnv(opponent=FailingOpponent(1, False), board_size=9, play_as="white")
    with pytest.raises(RuntimeError, match="crashed"):
        env.reset(seed=0)
    with pytest.raises(RuntimeError, match=r"opponent failed.*call reset"):
        env.step(40)


@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_observation_dtype_gives_the_same_planes_in_another_dtype(dtype):
    import gymnasium

    import gomoku_env

    plain = gymnasium.make(gomoku_env.GYM_ENV_ID, board_size=7, opponent="random")
    typed = gymnasium.make(
        gomoku_env.GYM_ENV_ID, board_size=7, opponent="random", observation_dtype=dtype
    )
    first, _ = plain.reset(seed=3)
    second, _ = typed.reset(seed=3)
    assert second.dtype == np.dtype(dtype) and typed.observation_space.contains(second)
    np.testing.assert_array_equal(first, second)
    for action in (24, 10, 3):
        first, *_ = plain.step(action)
        second, *_ = typed.step(action)
        np.testing.assert_array_equal(first, second)
    with pytest.raises(ValueError, match="observation_dtype"):
        gymnasium.make(gomoku_env.GYM_ENV_ID, observation_dtype="float16")


@pytest.mark.parametrize("play_as", ["black", "white"])
def test_random_opening_starts_near_the_centre_with_the_learner_to_move(
    play_as: str,
) -> None:
    env = GomokuEnv(board_size=9, play_as=play_as, random_opening=3)
    starts = set()
    for seed in range(6):
        observation, _ = env.reset(seed=seed)
        moves = env.unwrapped.board.moves
        assert env.unwrapped.board.to_move == env.unwrapped.learner_color
        # three opening stones, and the opponent's reply when they leave it to move
        assert len(moves) == (4 if play_as == "black" else 3)
        rows, cols = np.divmod(np.array(moves[:3]), 9)
        assert (abs(rows - 4) <= 2).all() and (abs(cols - 4) <= 2).all()
        assert observation[..., :2].sum() == len(moves)
        starts.add(tuple(moves))
    assert len(starts) == 6
    again, _ = env.reset(seed=0)
    first, _ = GomokuEnv(board_size=9, play_as=play_as, random_opening=3).reset(seed=0)
    assert np.array_equal(again, first)
