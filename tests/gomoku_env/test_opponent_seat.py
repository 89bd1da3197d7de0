"""OpponentSeat: the library sees only the learner's turns, the learner's final reward
reaches it through ``last()`` and ``rewards``, and an adaptive opponent hears every
game's score."""

from __future__ import annotations

import numpy as np
import pytest

import gomoku_env
from agents.specs.parse import make_agent
from gomoku_env.opponent_seat import OpponentSeat


def play_out(env: OpponentSeat, rng: np.random.Generator) -> float:
    """Play random legal learner moves to the end; the learner's final reward, which
    ``rewards`` must agree with."""
    while True:
        assert env.agent_selection == env.learner
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            assert env.rewards[env.learner] == reward
            env.step(None)
            assert not env.agents
            return float(reward)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("learner", ["black_0", "white_0", "random"])
def test_the_learner_alone_moves_and_sees_its_result(learner: str) -> None:
    env = OpponentSeat(gomoku_env.env(board_size=5, win_length=3), "random", learner)
    rng = np.random.default_rng(0)
    results, colours = set(), set()
    for game in range(30):
        env.reset(seed=game)
        colours.add(env.learner)
        results.add(play_out(env, rng))
    assert results == {-1.0, 1.0} or results == {-1.0, 0.0, 1.0}
    assert len(colours) == (2 if learner == "random" else 1)
    assert sum(env.opponents.values()) == 30


def test_a_shared_curriculum_hears_the_games_of_every_slot() -> None:
    config = gomoku_env.GameConfig(9)
    curriculum = make_agent("curriculum", config, seed=0)
    envs = [
        OpponentSeat(gomoku_env.env(board_size=9), curriculum, "random", slot)
        for slot in range(2)
    ]
    rng = np.random.default_rng(0)
    for env in envs:
        env.reset(seed=1)
        play_out(env, rng)
        assert env.last_result["learner_rating"] == round(curriculum.rating, 1)
    anchors = {anchor.spec for anchor in curriculum.anchors}
    assert set(envs[0].opponents) | set(envs[1].opponents) <= anchors


def test_an_unknown_learner_is_refused() -> None:
    with pytest.raises(ValueError, match="blue"):
        OpponentSeat(gomoku_env.env(board_size=5, win_length=3), "random", "blue")
