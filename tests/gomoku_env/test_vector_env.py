"""The compiled vector env: rules against an oracle, seeds, seats, opponents."""

from __future__ import annotations

import importlib
from typing import ClassVar

import numba
import numpy as np
import pytest
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from agents.specs import registry
from gomoku_env.errors import IllegalMoveError
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.notation import parse_moves
from gomoku_env.planes import (
    FORBIDDEN,
    OBSERVER_IS_BLACK,
    OPPONENT_STONES,
    OWN_STONES,
    PLANE_COUNT,
)
from gomoku_env.vector_env import GomokuVectorEnv


def has_line(stones: np.ndarray, length: int) -> bool:
    """Plain-Python oracle: whether a 0/1 grid holds ``length`` in a row."""
    size = stones.shape[0]
    for row in range(size):
        for col in range(size):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * d_row, col + i * d_col) for i in range(length)]
                if all(
                    0 <= r < size and 0 <= c < size and stones[r, c] for r, c in cells
                ):
                    return True
    return False


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def run(env: GomokuVectorEnv, seed: int, steps: int) -> list[tuple]:
    """Observations, rewards and terminations of ``steps`` seeded random steps."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    trace = [observations.tobytes()]
    for _ in range(steps):
        observations, rewards, terminated, _, _ = env.step(
            random_actions(env.action_masks(), rng)
        )
        trace.append((observations.tobytes(), rewards.tobytes(), terminated.tobytes()))
    return trace


def test_rewards_and_final_boards_agree_with_the_oracle() -> None:
    env = GomokuVectorEnv(16, board_size=6, win_length=4, play_as="random")
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    outcomes = set()
    for _ in range(60):
        observations, rewards, terminated, truncated, info = env.step(
            random_actions(env.action_masks(), rng)
        )
        assert not truncated.any() and "illegal_action" not in info
        assert np.array_equal(info["action_mask"], env.action_masks().astype(np.int8))
        for game in np.flatnonzero(terminated):
            final = info["final_obs"][game]
            own, other = has_line(final[..., 0], 4), has_line(final[..., 1], 4)
            full = (final[..., 0] + final[..., 1]).all()
            expected = 1.0 if own else -1.0 if other else 0.0
            assert rewards[game] == expected and (own or other or full)
            outcomes.add(expected)
        assert not rewards[~terminated].any()
        planes = observations.reshape(16, -1, PLANE_COUNT)
        assert np.array_equal(planes[..., 0] + planes[..., 1], ~env.action_masks())
    assert outcomes == {1.0, -1.0, 0.0}


def test_seeds_reproduce_episodes_exactly() -> None:
    one = run(GomokuVectorEnv(64, board_size=7, play_as="random"), 3, 20)
    again = run(GomokuVectorEnv(64, board_size=7, play_as="random"), 3, 20)
    assert one == again
    assert one != run(GomokuVectorEnv(64, board_size=7, play_as="random"), 4, 20)


def test_channels_first_layout() -> None:
    last = run(GomokuVectorEnv(4, board_size=7), 1, 5)
    env = GomokuVectorEnv(4, board_size=7, channels_first=True)
    first = run(env, 1, 5)
    assert env.observation_space.shape == (4, PLANE_COUNT, 7, 7)
    shape = (4, 7, 7, PLANE_COUNT)
    restored = (
        np.frombuffer(first[-1][0], np.int8)
        .reshape(4, PLANE_COUNT, 7, 7)
        .transpose(0, 2, 3, 1)
    )
    assert np.array_equal(restored, np.frombuffer(last[-1][0], np.int8).reshape(shape))


def test_learner_as_white_starts_after_the_opponents_move() -> None:
    env = GomokuVectorEnv(8, board_size=9, play_as="white")
    observations, info = env.reset(seed=0)
    assert (observations[..., 1].sum(axis=(1, 2)) == 1).all()
    assert not observations[..., 0].any() and not observations[..., 3].any()
    assert (info["action_mask"].sum(axis=1) == 80).all()


def test_illegal_actions_lose_or_raise() -> None:
    env = GomokuVectorEnv(2, board_size=9)
    env.reset(seed=0)
    env.step(np.array([40, 40]))
    occupied = int(np.flatnonzero(~env.action_masks()[0])[0])
    _, rewards, terminated, _, info = env.step(np.array([occupied, 0]))
    assert rewards[0] == -1.0 and terminated[0] and info["_illegal_move"][0]
    assert "is occupied by" in info["illegal_move"][0]
    assert info["reason"][0] == "illegal_move" and info["winner"][0] is None
    assert not info["_illegal_move"][1] and info["illegal_move"][1] is None

    env = GomokuVectorEnv(2, board_size=9, illegal_action="raise")
    env.reset(seed=0)
    env.step(np.array([40, 40]))
    cells = env.batch.cells.copy()
    with pytest.raises(
        IllegalMoveError, match="game 0: action 40 is occupied by black"
    ):
        env.step(np.array([40, 1]))
    assert np.array_equal(env.batch.cells, cells)


def test_illegal_action_random_plays_a_legal_move() -> None:
    env = GomokuVectorEnv(1, board_size=9, illegal_action="random")
    env.reset(seed=0)
    env.step(np.array([40]))
    _, _, terminated, _, info = env.step(np.array([40]))
    assert "occupied" in info["illegal_move"][0] and not terminated[0]
    assert (env.batch.cells != 0).sum() == 4


class BatchSpy:
    """A batched opponent that checks what it is shown; plays the first legal cell."""

    def __init__(self) -> None:
        self.calls = 0

    def reset(self, seed: int | None = None) -> None:
        pass

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        assert games.size == masks.shape[0] and (games < 4).all()
        self.calls += 1
        assert (masks.sum(axis=1) > 0).all()
        assert np.array_equal(
            planes[..., 0] + planes[..., 1] == 0, masks.reshape(planes.shape[:3]) == 1
        )
        return np.argmax(masks, axis=1)


@pytest.mark.parametrize("play_as", ["black", "white"])
def test_batched_and_per_game_opponents_see_their_own_side(play_as: str) -> None:
    spy = BatchSpy()
    seen_colours = []

    def per_game(planes: np.ndarray, mask: np.ndarray) -> int:
        assert mask.sum() > 0
        seen_colours.append(int(planes[0, 0, 3]))
        return int(np.flatnonzero(mask)[-1])

    for opponent in (spy, per_game, "random"):
        env = GomokuVectorEnv(4, opponent=opponent, board_size=5, play_as=play_as)
        run(env, 0, 40)
    assert spy.calls >= 40
    assert set(seen_colours) == {1 if play_as == "white" else 0}


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        GomokuVectorEnv(0)
    with pytest.raises(ValueError, match="play_as"):
        GomokuVectorEnv(4, play_as="both")
    with pytest.raises(ValueError, match="random_opening must be an int >= 0, got -1"):
        GomokuVectorEnv(4, random_opening=-1)
    env = GomokuVectorEnv(4, board_size=5)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"4 integers, got shape \(3,\)"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError, match="float"):
        env.step(np.zeros(4))


class ResetCounter:
    """A per-game agent that counts its resets and plays its first legal cell."""

    instances: ClassVar[list[ResetCounter]] = []

    def __init__(self, config: object = None, seed: int | None = None) -> None:
        self.resets = 0
        ResetCounter.instances.append(self)

    def reset(self, seed: int | None = None) -> None:
        self.resets += 1

    def act(self, observation: dict[str, np.ndarray]) -> int:
        return int(np.flatnonzero(observation["action_mask"])[0])


@pytest.mark.parametrize("random_opening", [0, 2, 3])
def test_spec_opponents_are_one_agent_per_game_reset_at_each_new_game(
    monkeypatch: pytest.MonkeyPatch, random_opening: int
) -> None:
    """Also after a random opening: the first reply then comes at a later stone
    count (with 2 or 3 opening stones the agents were not reset at all)."""
    # The built-in agents registered first, so that the copy (undone after) holds
    # them: registered into the copy only, they would be gone for every later test.
    importlib.import_module("agents.specs.parse")
    monkeypatch.setattr(registry, "AGENTS", dict(registry.AGENTS))
    registry.register_agent("reset_counter", ResetCounter)
    ResetCounter.instances.clear()
    env = GomokuVectorEnv(
        3,
        opponent="reset_counter",
        board_size=5,
        play_as="white",
        random_opening=random_opening,
    )
    env.reset(seed=0)
    finished = np.zeros(3, dtype=int)
    for _ in range(30):
        *_, terminated, _, _ = env.step(np.argmax(env.action_masks(), axis=1))
        finished += terminated
    assert len(ResetCounter.instances) == 3 and finished.sum() > 3
    # seeding, the first game, and one reset per later game
    assert [agent.resets for agent in ResetCounter.instances] == list(finished + 2)


def test_gymnasium_vector_wrappers_see_finished_episodes() -> None:
    env = RecordEpisodeStatistics(GomokuVectorEnv(4, board_size=7, play_as="black"))
    env.reset(seed=0)
    for _ in range(40):
        *_, terminated, _, info = env.step(np.argmax(env.env.action_masks(), axis=1))
        if terminated.any():
            break
    assert np.array_equal(info["_episode"], terminated)
    assert set(info["episode"]["r"][terminated]) <= {-1.0, 0.0, 1.0}


def test_threads_give_the_same_games_and_restore_numba_setting() -> None:
    before = numba.get_num_threads()
    serial = run(GomokuVectorEnv(64, board_size=7, play_as="random"), 5, 20)
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    env = GomokuVectorEnv(64, board_size=7, play_as="random", num_threads=threads)
    assert run(env, 5, 20) == serial
    assert numba.get_num_threads() == before
    with pytest.raises(ValueError, match="num_threads must be an int from 1"):
        GomokuVectorEnv(4, num_threads=0)


class FailingBatch(BatchSpy):
    """A batched opponent that raises on its ``fail_at``-th call."""

    def __init__(self, fail_at: int) -> None:
        super().__init__()
        self.fail_at = fail_at

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        if self.calls + 1 == self.fail_at:
            raise RuntimeError("opponent crashed")
        return super().act_batch(planes, masks, games)


def play_to_cell(planes: np.ndarray, mask: np.ndarray) -> int:
    """A per-game opponent that plays cell 0 whether it is free or not."""
    return 0


@pytest.mark.parametrize(
    ("opponent", "error", "message"),
    [
        (FailingBatch(2), RuntimeError, "crashed"),
        (play_to_cell, IllegalMoveError, "illegal action 0"),
    ],
)
def test_opponent_failure_ends_the_games_never_swaps_colours(
    opponent, error: type, message: str
) -> None:
    env = GomokuVectorEnv(2, opponent=opponent, board_size=9)
    env.reset(seed=0)
    env.step(np.array([40, 40]))
    with pytest.raises(error, match=message):
        env.step(np.array([50, 50]))
    with pytest.raises(RuntimeError, match=r"opponent failed.*call reset"):
        env.step(np.array([60, 60]))
    assert not env.action_masks().any()
    if isinstance(opponent, FailingBatch):
        opponent.fail_at = 0
        env.reset(seed=0)
        observations, *_ = env.step(np.array([40, 40]))
        assert (observations[:, 4, 4, 0] == 1).all()
        assert (observations[..., 1].sum(axis=(1, 2)) == 1).all()


def replying_opponent(planes: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic opponent that still varies: a legal point picked by the stones."""
    legal = np.flatnonzero(mask)
    weights = np.arange(1, planes[..., 0].size + 1).reshape(planes.shape[:2])
    stones = int(
        (planes[..., 0] * weights).sum() + 3 * (planes[..., 1] * weights).sum()
    )
    return int(legal[stones % legal.size])


@pytest.mark.parametrize("play_as", ["black", "white"])
def test_renju_games_match_the_gymnasium_env(play_as: str) -> None:
    """Masks, planes (forbidden points included), rewards and ends of the vector env
    equal those of one Gymnasium env per game for the same moves under renju."""
    games, size = 3, 9
    options = {"board_size": size, "rule": "renju", "play_as": play_as}
    opponent_forbidden = []

    def opponent(planes: np.ndarray, mask: np.ndarray) -> int:
        opponent_forbidden.append(int(planes[..., FORBIDDEN].sum()))
        return replying_opponent(planes, mask)

    vector = GomokuVectorEnv(games, opponent=opponent, **options)
    singles = [GomokuEnv(opponent=opponent, **options) for _ in range(games)]
    observations, _ = vector.reset(seed=0)
    expected = [env.reset(seed=0)[0] for env in singles]
    rng = np.random.default_rng(1)
    moves = forbidden_seen = endings = 0
    for _ in range(150):
        masks = vector.action_masks()
        for game, env in enumerate(singles):
            assert np.array_equal(observations[game], expected[game])
            assert np.array_equal(masks[game], env.action_masks())
        forbidden_seen += int(observations[..., FORBIDDEN].sum())
        actions = random_actions(masks, rng)
        observations, rewards, terminated, _, info = vector.step(actions)
        for game, env in enumerate(singles):
            single, reward, ended, _, _ = env.step(int(actions[game]))
            assert (rewards[game], terminated[game]) == (reward, ended)
            if ended:
                assert np.array_equal(info["final_obs"][game], single)
                single, _ = env.reset()
                endings += 1
            expected[game] = single
        moves += games
    forbidden_seen += sum(opponent_forbidden)
    assert moves >= 300 and endings >= 3 and forbidden_seen > 0


def test_vector_env_observation_dtype():
    import gymnasium

    import gomoku_env

    envs = gymnasium.make_vec(
        gomoku_env.GYM_ENV_ID, num_envs=3, board_size=6, observation_dtype="float32"
    )
    observations, _ = envs.reset(seed=0)
    assert observations.dtype == np.float32
    assert envs.observation_space.contains(observations)
    actions = np.array([np.flatnonzero(mask)[0] for mask in envs.action_masks()])
    observations, *_ = envs.step(actions)
    assert observations.dtype == np.float32 and set(np.unique(observations)) <= {0, 1}


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_random_opening_starts_every_game_near_the_centre(rule: str) -> None:
    env = GomokuVectorEnv(
        64, board_size=9, play_as="random", random_opening=3, rule=rule
    )
    observations, _ = env.reset(seed=5)
    stones = observations[..., OWN_STONES] + observations[..., OPPONENT_STONES]
    counts = stones.sum(axis=(1, 2))
    black = observations[:, 0, 0, OBSERVER_IS_BLACK] == 1
    # three stones; a black learner is to move after the opponent's reply
    assert (counts[black] == 4).all() and (counts[~black] == 3).all()
    assert black.any() and (~black).any()
    centre = np.zeros((9, 9), dtype=bool)
    centre[2:7, 2:7] = True
    assert (stones[~black][:, ~centre] == 0).all()
    assert len({stones[game].tobytes() for game in range(64)}) > 32
    assert run(env, seed=5, steps=40) == run(env, seed=5, steps=40)
    # games that end start again from a fresh opening
    for _ in range(40):
        observations, _, terminated, _, _ = env.step(
            random_actions(env.action_masks(), np.random.default_rng(0))
        )
        restarted = observations[terminated]
        played = (restarted[..., OWN_STONES] + restarted[..., OPPONENT_STONES]).sum(
            axis=(1, 2)
        )
        assert set(played.tolist()) <= {3, 4}


def test_end_of_game_infos_match_the_final_observations() -> None:
    env = GomokuVectorEnv(16, board_size=7, win_length=4, max_moves=30)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    reasons = set()
    for _ in range(60):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        _, rewards, terminated, truncated, info = env.step(actions)
        for game in np.flatnonzero(terminated | truncated):
            reason, final = info["reason"][game], info["final_obs"][game]
            reasons.add(reason)
            assert info["moves"][game] == final[..., :2].sum()
            if reason != "five":
                assert info["winner"][game] is None
                assert info["winning_line"][game] == ""
                assert truncated[game] == (reason == "move_limit")
                continue
            learner_won = rewards[game] > 0
            assert info["winner"][game] == ("black" if learner_won else "white")
            plane = final[..., 0 if learner_won else 1].ravel()
            line = parse_moves(info["winning_line"][game], 7)
            assert len(line) >= 4 and plane[line].all()
    assert {"five", "move_limit"} <= reasons
