"""The league: seeded draws in the shares asked for, snapshots on the cadence, one call
per batching snapshot, infos naming the opponent, and both envs driving it."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

import agents.league
from agents.curriculum import CurriculumOpponent
from agents.league import LeagueOpponent, LeagueOptions
from gomoku_env.config import GameConfig
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.vector_env import GomokuVectorEnv

NINE = GameConfig(board_size=9)


class FirstLegal:
    """A stand-in anchor: plays the first legal point."""

    def __init__(self, spec: str, config: GameConfig, seed: int | None) -> None:
        self.spec = spec

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        return int(np.flatnonzero(observation["action_mask"])[0])


class Snapshot:
    """A stand-in frozen network: plays the last legal point and records the sizes of
    its batches, each with the step it came in."""

    def __init__(self, clock: list[int] | None = None) -> None:
        self.calls: list[tuple[int, int]] = []
        self.clock = clock or [0]

    def act_batch(self, planes: np.ndarray, masks: np.ndarray) -> np.ndarray:
        self.calls.append((self.clock[0], len(masks)))
        return np.array([np.flatnonzero(mask)[-1] for mask in masks])


def league(
    snapshots: int = 0, seed: int = 0, snapshot=None, **options
) -> LeagueOpponent:
    """A league on 9x9 whose curriculum's anchors are stand-ins, with ``snapshots``
    stand-in snapshots in its pool."""
    options = LeagueOptions(**options)
    curriculum = CurriculumOpponent(NINE, FirstLegal, options)
    made = LeagueOpponent(NINE, options, snapshot, seed=seed, anchors=curriculum)
    for _ in range(snapshots):
        made.add_snapshot(Snapshot())
    return made


def draws(made: LeagueOpponent, games: int = 3000) -> list[str]:
    return [made.opponent_for(slot) for slot in range(games)]


def test_the_draws_follow_the_shares() -> None:
    drawn = draws(league(3, anchor_share=0.3, latest_share=0.6))
    share = {name: drawn.count(name) / len(drawn) for name in set(drawn)}
    snapshots = 1 - 0.3
    assert math.isclose(share.pop("snapshot 3"), snapshots * 0.6, abs_tol=0.03)
    for older in ("snapshot 1", "snapshot 2"):
        assert math.isclose(share.pop(older), snapshots * 0.2, abs_tol=0.03)
    assert math.isclose(sum(share.values()), 0.3, abs_tol=0.03)  # the anchors


def test_the_same_seed_draws_the_same_opponents() -> None:
    assert draws(league(3, seed=4)) == draws(league(3, seed=4))
    assert draws(league(3, seed=4)) != draws(league(3, seed=5))
    reseeded = league(3, seed=9)
    reseeded.reset(seed=4)
    assert draws(reseeded) == draws(league(3, seed=4), 3000)


def test_every_game_goes_to_the_anchors_while_the_pool_is_empty() -> None:
    drawn = draws(league(0, anchor_share=0.0), 50)
    assert not any(name.startswith("snapshot") for name in drawn)


def test_a_snapshot_is_taken_every_snapshot_every_finished_games() -> None:
    taken = []

    def snapshot() -> Snapshot:
        taken.append(len(taken))
        return Snapshot()

    made = league(snapshot=snapshot, snapshot_every=5, pool_size=2)
    counts = []
    for _ in range(6):
        made.game_results(np.arange(3), np.ones(3))
        counts.append(len(taken))
    assert counts == [0, 1, 1, 2, 3, 3]  # games 3, 6, 9, 12, 15, 18
    assert list(made.snapshots) == [2, 3] and made.taken == 3


def test_a_batching_snapshot_answers_all_its_games_in_one_call() -> None:
    made = league(0, anchor_share=0.0)
    network = Snapshot()
    made.add_snapshot(network)
    masks = np.ones((5, 81), dtype=np.int8)
    replies = made.act_batch(np.zeros((5, 9, 9, 5), np.int8), masks, np.arange(5))
    assert replies.tolist() == [80] * 5
    assert network.calls == [(0, 5)]


def test_the_infos_name_the_opponent_and_only_anchor_games_move_the_rating() -> None:
    made = league(1, anchor_share=0.5)
    slots = np.arange(40)
    opponents = [made.opponent_for(slot) for slot in slots]
    anchored = np.array([not name.startswith("snapshot") for name in opponents])
    assert 0 < anchored.sum() < 40
    before = made.anchors.rating
    infos = made.game_results(slots[~anchored], np.ones(int((~anchored).sum())))
    assert made.anchors.rating == before
    assert all(info["opponent"] == "snapshot 1" for info in infos)
    assert all(info["learner_rating"] == round(before, 1) for info in infos)
    infos = made.game_results(slots[anchored], np.ones(int(anchored.sum())))
    assert made.anchors.rating > before
    assert [info["opponent"] for info in infos] == [
        name for name, anchor in zip(opponents, anchored, strict=True) if anchor
    ]


def gym_games(seed: int, games: int) -> tuple[list[str], int]:
    """The opponents named in the final infos of ``games`` Gymnasium games against a
    league snapshotting every 2 games, and how many snapshots it took."""
    made = league(snapshot=Snapshot, snapshot_every=2, anchor_share=0.3)
    env = GomokuEnv(opponent=made, board_size=9)
    _, info = env.reset(seed=seed)
    seen = []
    for _ in range(games):
        terminated = truncated = False
        while not (terminated or truncated):
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, _, terminated, truncated, info = env.step(action)
        seen.append(info["opponent"])
        assert isinstance(info["learner_rating"], float)
        _, info = env.reset()
    return seen, made.taken


def test_the_gymnasium_env_plays_the_league_seeded() -> None:
    seen, taken = gym_games(seed=3, games=8)
    assert taken == 4
    assert any(name.startswith("snapshot") for name in seen)
    assert any(not name.startswith("snapshot") for name in seen)
    assert gym_games(seed=3, games=8) == (seen, taken)


def test_the_vector_env_asks_each_snapshot_once_a_step() -> None:
    clock = [0]
    made = league(0, anchor_share=0.25)
    networks = [Snapshot(clock) for _ in range(2)]
    for network in networks:
        made.add_snapshot(network)
    env = GomokuVectorEnv(num_envs=8, opponent=made, board_size=9)
    _, info = env.reset(seed=0)
    seen = []
    for step in range(40):
        clock[0] = step
        actions = info["action_mask"].argmax(axis=1)  # the first legal points
        *_, info = env.step(actions)
        if "opponent" in info:
            seen.extend(info["opponent"][info["_opponent"]])
    assert {"snapshot 1", "snapshot 2"} < set(seen)  # and anchors
    for network in networks:
        steps = [step for step, _ in network.calls]
        assert steps and len(steps) == len(set(steps))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"snapshot_every": 0}, "snapshot_every.*got 0"),
        ({"pool_size": 0}, "pool_size.*got 0"),
        ({"latest_share": 1.5}, "latest_share.*got 1.5"),
        ({"anchor_share": float("nan")}, "anchor_share.*got nan"),
        ({"anchor_share": -0.1}, "anchor_share.*got -0.1"),
        ({"target": float("nan")}, "target.*got nan"),
    ],
)
def test_bad_options_are_refused_naming_the_value(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LeagueOptions(**options)


def test_a_snapshot_that_cannot_play_is_refused() -> None:
    with pytest.raises(TypeError, match="act_batch"):
        league().add_snapshot(object())


def test_the_module_examples_run() -> None:
    failures, tried = doctest.testmod(agents.league)
    assert tried and not failures
