"""OpponentSeat: the library moves only for the learner, the step that ends a game
holds the learner's result in ``rewards`` and ``last()``, every agent left takes its
last step, PettingZoo's ``api_test`` passes, and an adaptive opponent hears every
game's score."""

from __future__ import annotations

import doctest
from collections import Counter

import numpy as np
import pytest
from pettingzoo.test import api_test

import gomoku_env
import gomoku_env.opponent_seat
from agents.specs.parse import make_agent
from gomoku_env.opponent_seat import OpponentSeat
from tests.gomoku_env.test_aec_env import run_without_unexpected_warnings


def small_seat(learner: str, opponent_leaves: bool = False) -> OpponentSeat:
    return OpponentSeat(
        gomoku_env.env(board_size=5, win_length=3),
        "random",
        learner,
        opponent_leaves=opponent_leaves,
    )


def play_game(env: OpponentSeat, rng: np.random.Generator) -> dict[str, float]:
    """Random legal learner moves until the game ends: the rewards of the last step."""
    while True:
        assert env.agent_selection == env.learner
        observation, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if env.terminations[env.learner] or env.truncations[env.learner]:
            return env.rewards


def finish(env: OpponentSeat) -> list[tuple[str, float]]:
    """The last steps of the agents left, as an ``agent_iter`` loop takes them:
    (agent, its reward from ``last()``) in turn."""
    last_steps = []
    while env.agents:
        agent = env.agent_selection
        _, reward, termination, truncation, _ = env.last()
        assert termination or truncation
        last_steps.append((agent, float(reward)))
        env.step(None)
    return last_steps


@pytest.mark.parametrize("learner", ["black_0", "white_0", "random"])
def test_the_wrapper_passes_the_pettingzoo_api_test(learner: str) -> None:
    run_without_unexpected_warnings(api_test, small_seat(learner), num_cycles=100)


@pytest.mark.parametrize("opponent_leaves", [False, True])
@pytest.mark.parametrize("learner", ["black_0", "white_0"])
def test_the_learner_sees_its_result_when_the_game_ends(
    learner: str, opponent_leaves: bool
) -> None:
    env = small_seat(learner, opponent_leaves)
    opponent = next(agent for agent in env.possible_agents if agent != learner)
    rng = np.random.default_rng(0)
    results: Counter[float] = Counter()
    for game in range(30):
        env.reset(seed=game)
        rewards = play_game(env, rng)
        winner = env.infos[learner]["winner"]
        result = 0.0 if winner is None else 1.0 if f"{winner}_0" == learner else -1.0
        results[result] += 1
        assert rewards[learner] == result
        last_steps = finish(env)
        if opponent_leaves:  # the opponent's last step was taken inside step
            assert last_steps == [(learner, result)]
        elif result == 1:  # the opponent is selected first for its last step
            assert last_steps == [(opponent, -1.0), (learner, 1.0)]
        else:
            assert last_steps == [(learner, result), (opponent, -result)]
    assert results[1.0] > 0 and results[-1.0] > 0
    assert env.opponents == Counter({"random": 30})


def test_an_agent_opponent_is_counted_under_the_name_given() -> None:
    config = gomoku_env.GameConfig(5, 3)
    agent = make_agent("random", config, seed=0)
    named, unnamed = (
        OpponentSeat(
            gomoku_env.env(board_size=5, win_length=3), agent, "black_0", name=name
        )
        for name in ("random", None)
    )
    rng = np.random.default_rng(0)
    for env in (named, unnamed):
        env.reset(seed=0)
        play_game(env, rng)
    assert named.opponents == Counter({"random": 1})
    assert unnamed.opponents == Counter({repr(agent): 1})


def test_a_random_seat_draws_both_colours() -> None:
    env = small_seat("random")
    rng = np.random.default_rng(0)
    colours = set()
    for game in range(20):
        env.reset(seed=game)
        colours.add(env.learner)
        play_game(env, rng)
        finish(env)
    assert colours == {"black_0", "white_0"}


def test_a_seeded_wrapper_plays_the_same_games_when_reset_before_seeding() -> None:
    """Tianshou's wrapper resets the env before the vector env seeds it: the
    wrapper's own ``seed`` makes those first games (colours, opponent seeds) the same
    in every run, where fresh entropy drew other colours each time."""

    def colours(seed: int | None) -> list[str]:
        env = OpponentSeat(
            gomoku_env.env(board_size=5, win_length=3), "random", "random", seed=seed
        )
        drawn = []
        for _ in range(30):
            env.reset()
            drawn.append(env.learner)
        return drawn

    assert colours(3) == colours(3)
    assert colours(3) != colours(4)
    assert set(colours(3)) == {"black_0", "white_0"}


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
        play_game(env, rng)
        assert env.last_result["learner_rating"] == round(curriculum.rating, 1)
        finish(env)
    anchors = {anchor.spec for anchor in curriculum.anchors}
    assert set(envs[0].opponents) | set(envs[1].opponents) <= anchors
    assert sum(envs[0].opponents.values()) + sum(envs[1].opponents.values()) == 2


def test_an_unknown_learner_is_refused() -> None:
    with pytest.raises(ValueError, match="blue"):
        OpponentSeat(gomoku_env.env(board_size=5, win_length=3), "random", "blue")


def test_the_module_example_runs() -> None:
    result = doctest.testmod(gomoku_env.opponent_seat)
    assert result.attempted > 0 and result.failed == 0
