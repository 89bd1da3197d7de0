"""The opponent curriculum: anchors chosen by the learner's running rating, the
rating fitted as ``gomoku rate`` fits it, seeded draws, and the envs' infos."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gomoku_env
from agents.curriculum import CurriculumOpponent, CurriculumOptions
from agents.scales.anchored_fit import fit_anchored_rating
from agents.scales.reference import reference_scale
from agents.specs.parse import make_agent
from gomoku_env.config import GameConfig
from gomoku_env.game_state import SEED_BOUND
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.vector_env import GomokuVectorEnv

NINE = GameConfig(board_size=9)


class Recorder:
    """A stand-in anchor that plays the first legal point and counts its calls."""

    def __init__(self, spec: str, batches: bool) -> None:
        self.spec, self.calls, self.seeds = spec, [], []
        if batches:
            self.act_batch = self._act_batch

    def reset(self, seed: int | None = None) -> None:
        self.seeds.append(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        self.calls.append(1)
        return int(np.flatnonzero(observation["action_mask"])[0])

    def _act_batch(self, planes, masks, games) -> np.ndarray:
        self.calls.append(len(games))
        return np.array([np.flatnonzero(mask)[0] for mask in masks])


def recording_curriculum(**options) -> tuple[CurriculumOpponent, dict[str, Recorder]]:
    built: dict[str, Recorder] = {}

    def build(spec: str, config: GameConfig, seed: int | None) -> Recorder:
        built[spec] = Recorder(spec, batches=spec == "heuristic")
        return built[spec]

    return CurriculumOpponent(NINE, build, CurriculumOptions(**options), seed=0), built


def test_the_anchor_moves_up_with_wins_and_down_with_losses() -> None:
    opponent, _ = recording_curriculum()
    first = opponent.anchor_for(0).rating
    for _ in range(6):
        opponent.game_results(np.array([0]), np.array([1.0]))
    risen = opponent.anchor_for(0).rating
    assert risen > first + 300
    for _ in range(12):
        opponent.game_results(np.array([0]), np.array([0.0]))
    assert opponent.anchor_for(0).rating < risen


def test_the_rating_is_the_anchored_fit_of_the_window() -> None:
    opponent, _ = recording_curriculum(window=3)
    played = []
    for score in (1.0, 0.5, 0.0, 1.0):
        anchor = opponent.anchor_for(0)
        played.append((anchor.rating, score))
        (info,) = opponent.game_results(np.array([0]), np.array([score]))
        assert info["opponent"] == anchor.spec
    ratings = sorted({rating for rating, _ in played[-3:]})
    points = [sum(s for r, s in played[-3:] if r == a) for a in ratings]
    games = [sum(1 for r, _ in played[-3:] if r == a) for a in ratings]
    expected = fit_anchored_rating(ratings, points, games).rating
    assert math.isclose(opponent.rating, expected)
    assert info["learner_rating"] == round(expected, 1)


def test_the_chosen_anchor_is_expected_to_score_the_target() -> None:
    opponent, _ = recording_curriculum(target=0.35, leeway=0)
    opponent.rating = 1000.0
    chosen = opponent.anchor_for(0).rating
    ratings = [anchor.rating for anchor in reference_scale(9).anchors]
    wanted = 1000 + 400 * math.log10(0.65 / 0.35)
    assert abs(chosen - wanted) == min(abs(rating - wanted) for rating in ratings)


@pytest.mark.parametrize("rating", [400.0, 1000.0, 1500.0, 1800.0, 2000.0])
def test_within_the_leeway_the_cheapest_anchor_plays(rating: float) -> None:
    anchors = reference_scale(9).anchors
    wanted = rating + 400 * math.log10(0.65 / 0.35)
    near = [a for a in anchors if abs(a.rating - wanted) <= 120]
    cheapest = min(near, key=lambda anchor: anchor.ms_per_move)
    opponent, _ = recording_curriculum(target=0.35, leeway=120)
    opponent.rating = rating
    assert opponent.anchor_for(0) == cheapest
    nearest, _ = recording_curriculum(target=0.35, leeway=0)
    nearest.rating = rating
    assert abs(nearest.anchor_for(0).rating - wanted) <= abs(cheapest.rating - wanted)


def test_a_batching_anchor_answers_all_its_games_in_one_call() -> None:
    opponent, built = recording_curriculum()
    opponent.rating = reference_scale(9).anchor("heuristic").rating - 100
    assert opponent.anchor_for(0).spec == "heuristic"
    masks = np.ones((3, 81), dtype=np.int8)
    planes = np.zeros((3, 9, 9, 5), dtype=np.int8)
    replies = opponent.act_batch(planes, masks, np.array([0, 4, 7]))
    assert replies.tolist() == [0, 0, 0]
    assert built["heuristic"].calls == [3]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("curriculum:target=1.5", "target"),
        ("curriculum:target=nan", "target"),
        ("curriculum:window=0", "window"),
        ("curriculum:leeway=-1", "leeway"),
        ("curriculum:leeway=inf", "leeway"),
        ("curriculum:families=0", "families"),
        ("curriculum:scale=15x15-v1", "15x15-v1"),
        ("curriculum:scale=9x9-v9", "9x9-v9"),
    ],
)
def test_bad_options_are_refused_by_name(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, NINE)


def gym_opponents(seed: int, games: int) -> list[tuple[str, float]]:
    """The anchors and ratings in the final infos of ``games`` games of the
    Gymnasium env against the curriculum, the learner playing its first legal point."""
    env = GomokuEnv(opponent="curriculum", board_size=9)
    _, info = env.reset(seed=seed)
    seen = []
    for _ in range(games):
        while True:
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        seen.append((info["opponent"], info["learner_rating"]))
        _, info = env.reset()
    return seen


def test_the_gymnasium_env_names_each_games_anchor_and_is_seeded() -> None:
    first = gym_opponents(seed=5, games=4)
    assert first == gym_opponents(seed=5, games=4)
    specs = {anchor.spec for anchor in reference_scale(9).anchors}
    assert all(spec in specs for spec, _ in first)
    assert all(isinstance(rating, float) for _, rating in first)


def test_the_vector_env_reports_the_finished_games_only() -> None:
    env = GomokuVectorEnv(num_envs=4, opponent="curriculum", board_size=9)
    _, info = env.reset(seed=0)
    reported = 0
    for _ in range(30):
        actions = np.array([np.flatnonzero(mask)[0] for mask in info["action_mask"]])
        _, _, terminated, truncated, info = env.step(actions)
        finished = terminated | truncated
        if finished.any():
            assert np.array_equal(info["_opponent"], finished)
            assert all(isinstance(spec, str) for spec in info["opponent"][finished])
            assert all(value is None for value in info["opponent"][~finished])
            reported += int(finished.sum())
        else:
            assert "opponent" not in info
    assert reported > 0


def test_families_above_one_take_the_families_within_the_leeway_in_turn() -> None:
    # at +1300 the target asks for about +1408: noisy heuristics (0.2 ms) and
    # MCTS (8-13 ms) lie within 120 Elo of it
    rating = 1300.0
    wanted = rating + 400 * math.log10(0.65 / 0.35)
    near = [a for a in reference_scale(9).anchors if abs(a.rating - wanted) <= 120]
    cheapest = {}
    for anchor in sorted(near, key=lambda a: a.ms_per_move):
        cheapest.setdefault(anchor.spec.split(":")[0], anchor)
    assert list(cheapest) == ["heuristic", "mcts"]
    met = []
    for families in (1, 2, 5):
        opponent, _ = recording_curriculum(leeway=120, families=families)
        opponent.rating = rating
        met.append([opponent.anchor_for(slot) for slot in range(4)])
    assert met[0] == [cheapest["heuristic"]] * 4
    assert met[1] == [cheapest["heuristic"], cheapest["mcts"]] * 2
    assert met[2] == met[1]  # only two families are that near
    opponent.anchor_for(4)  # a fifth game: MCTS's turn would be next
    opponent.reset(seed=4)  # a seed restarts the turns: the same opponents again
    assert [opponent.anchor_for(slot) for slot in range(4)] == met[1]


def test_a_slot_builds_its_anchor_once_and_each_game_plays_as_a_fresh_one() -> None:
    """An anchor that does not batch is built once per slot and reset for each game
    with the game's seed: its moves are those of an agent built for that game."""
    built: list[str] = []

    def build(spec: str, config: GameConfig, seed: int | None):
        built.append(spec)
        return make_agent(spec, config, seed=seed)

    opponent = CurriculumOpponent(NINE, build, seed=0)
    env = gomoku_env.env(board_size=9)
    env.reset(seed=0)
    observation = env.observe("black_0")
    planes, mask = observation["observation"][None], observation["action_mask"][None]
    replies = []
    for _ in range(6):
        replies.append(int(opponent.act_batch(planes, mask, np.array([0]))[0]))
        # scoring the target keeps the rating where this anchor is chosen again
        opponent.game_results(np.array([0]), np.array([0.35]))
    spec = opponent.anchor_for(0).spec
    assert built == [spec] and spec.startswith("mcts:")
    draws = np.random.default_rng(0)
    fresh = []
    for _ in range(6):
        seed = int(draws.integers(SEED_BOUND))
        agent = make_agent(spec, NINE, seed=seed)
        agent.reset(seed=seed)
        fresh.append(agent.act(observation))
    assert replies == fresh and len(set(replies)) > 1
