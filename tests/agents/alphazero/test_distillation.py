"""Teacher games: positions labelled for a new network, and what AlphaZero learns."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.alphazero.distillation import distil, teacher_samples
from agents.alphazero.learner import Learner
from agents.alphazero.network import (
    PolicyValueNet,
    masked_log_softmax,
    planes_to_tensor,
)
from agents.alphazero.replay import Batch
from agents.alphazero.training_config import DistillationConfig, LearnerConfig
from agents.classic.reports import pattern_state
from agents.patterns.threats import find_vcf
from agents.training.teacher_games import search_labels, teacher_games
from gomoku_env.config import GameConfig
from gomoku_env.game_state import GameState
from gomoku_env.planes import OPPONENT_STONES, OWN_STONES, board_from_stones
from tests.agents.alphazero.test_network import TINY
from tests.agents.helpers import cells_from_diagram

SIX = GameConfig(6, 4)


def test_teacher_samples_are_legal_one_hot_moves_with_game_results() -> None:
    taught = teacher_games(SIX, DistillationConfig(games=12), np.random.default_rng(0))
    samples = teacher_samples(taught, SIX)
    assert taught.games == 12 and len(samples.value) >= 12 * 7  # four stones each
    assert np.all(samples.policy.sum(axis=1) == 1.0)
    assert set(np.unique(samples.policy)) <= {0.0, 1.0}
    targets = samples.policy.argmax(axis=1)
    stones = samples.planes[..., OWN_STONES] + samples.planes[..., OPPONENT_STONES]
    assert np.all(
        stones.reshape(len(targets), -1)[np.arange(len(targets)), targets] == 0
    )
    assert set(np.unique(samples.value)) <= {-1.0, 0.0, 1.0}
    assert taught.black_wins + taught.draws <= taught.games


def test_teacher_games_differ_by_seed_and_repeat_with_it() -> None:
    config = DistillationConfig(games=4)
    first, again, other = (
        teacher_games(SIX, config, np.random.default_rng(seed)) for seed in (1, 1, 2)
    )
    np.testing.assert_array_equal(first.planes, again.planes)
    assert first.planes.shape != other.planes.shape or np.any(
        first.planes != other.planes
    )


def _agreement(network: PolicyValueNet, samples: Batch) -> float:
    """Share of positions where the network's favourite move is the teacher's."""
    with torch.no_grad():
        logits, _ = network(planes_to_tensor(samples.planes))
        chosen = masked_log_softmax(logits, torch.from_numpy(samples.masks)).argmax(1)
    return float((chosen.numpy() == samples.policy.argmax(axis=1)).mean())


def test_a_distilled_network_plays_the_teachers_moves_far_more_often() -> None:
    """The point of distillation: on positions it never saw, the network picks the
    heuristic's move much more often than the untrained one does."""
    torch.manual_seed(0)
    network = PolicyValueNet(TINY)
    held_out = teacher_samples(
        teacher_games(SIX, DistillationConfig(games=40), np.random.default_rng(99)), SIX
    )
    before = _agreement(network, held_out)
    learner = Learner(network, LearnerConfig(learning_rate=5e-3))
    config = DistillationConfig(games=150, steps=250)
    taught, losses = distil(learner, SIX, config, 64, np.random.default_rng(0))
    assert taught.games == 150 and len(losses) == 250 and learner.steps == 250
    assert np.mean([t.total for t in losses[-25:]]) < np.mean(
        [t.total for t in losses[:25]]
    )
    after = _agreement(network, held_out)
    assert before < 0.25 and after > before + 0.25, (before, after)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("games", -1),
        ("steps", 1.5),
        ("opening_moves", True),
        ("random_move_probability", 2),
    ],
)
def test_bad_distillation_settings_are_named(field: str, value: object) -> None:
    with pytest.raises((TypeError, ValueError), match=f"DistillationConfig.{field}"):
        DistillationConfig(**{field: value})


def test_search_labels_play_the_vcf_and_do_not_depend_on_the_workers() -> None:
    game = GameConfig()
    cells = cells_from_diagram(
        [".....O.", ".OXXX..", ".....X.", ".....X.", ".OXXX.."], top=3, left=2
    )
    filler = [14 * 15 + column for column in (0, 3, 6, 9, 12)]  # lone white stones
    board = board_from_stones(
        np.flatnonzero(cells == 1), [*np.flatnonzero(cells == 2), *filler], None, game
    )
    state = GameState(game)
    state.reset(board.moves)
    other = teacher_games(game, DistillationConfig(games=2), np.random.default_rng(3))
    planes = np.concatenate([state.observation(board.to_move)[None], other.planes[:5]])
    masks = np.concatenate([state.legal_mask()[None], other.masks[:5]])
    labels = [
        search_labels(game, planes, masks, 2, np.random.default_rng(0), workers)
        for workers in (1, 2)
    ]
    np.testing.assert_array_equal(labels[0], labels[1])
    assert np.all(masks[np.arange(len(masks)), labels[0]] == 1)
    line = np.empty(16, dtype=np.int64)
    length, _ = find_vcf(pattern_state(board), board.to_move, 15, 20_000, line)
    assert length > 0 and labels[0][0] == line[0]


def test_teacher_depth_labels_legal_moves() -> None:
    config = DistillationConfig(games=3, depth=1)
    positions = teacher_games(SIX, config, np.random.default_rng(0))
    samples = teacher_samples(positions, SIX)
    targets = samples.policy.argmax(axis=1)
    assert np.all(samples.masks[np.arange(len(targets)), targets] == 1)
    assert np.all(samples.policy.sum(axis=1) == 1.0)
    # the search's move is the one best point PPO's warm start learns too
    assert np.array_equal(positions.best.argmax(axis=1), targets)
    assert np.all(positions.best.sum(axis=1) == 1)
