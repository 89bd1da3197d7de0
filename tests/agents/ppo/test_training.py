"""The PPO recipe: teacher games, symmetries, advantages, a tiny run that learns, and
resuming a run from its checkpoint."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.base import RandomAgent
from agents.classic.heuristic import HeuristicAgent
from agents.head_to_head import play_match
from agents.ppo.training import (
    NoisyHeuristic,
    PPOConfig,
    Rollout,
    symmetric_batch,
    teacher_games,
    train,
)
from agents.torch_policy import NetworkAgent, PolicyNetwork, PolicyShape, load_policy
from gomoku_env.board import transform_action, transform_planes
from gomoku_env.config import GameConfig

TINY = PPOConfig(
    board_size=6, win_length=4, opponent_noise=1.0, random_opening=0, channels=16,
    layers=2, teacher_samples=0, num_envs=32, rollout_steps=8, epochs=2, minibatch=128,
    learning_rate=1e-3, entropy=0.01, env_steps=24_000, cpu_hours=0.0,
    checkpoint_every=8_000, threads=1,
)  # fmt: skip


def score_against_random(network: PolicyNetwork, config: PPOConfig) -> float:
    """The greedy policy's score over 60 games against random (random openings)."""
    agent = NetworkAgent(network)
    return play_match(agent, RandomAgent(seed=3), config.game, 60, seed=9).score


def test_a_tiny_run_beats_its_untrained_start(tmp_path: Path) -> None:
    torch.manual_seed(TINY.seed)
    start = score_against_random(PolicyNetwork(PolicyShape(16, 2)), TINY)
    points = []
    network, state = train(
        TINY, tmp_path, lambda _, s: points.append(s.env_steps), 8_000, log=print
    )
    assert state.env_steps >= TINY.env_steps and state.cpu_seconds > 0
    assert points[0] == 0 and points[-1] == state.env_steps and len(points) >= 3
    end = score_against_random(network, TINY)
    assert end >= start + 0.2, (start, end)
    saved = load_policy(tmp_path / "policy.pt")
    planes = torch.zeros(1, 6, 6, 5, dtype=torch.int8)
    assert torch.equal(saved(planes)[0], network.eval()(planes)[0])


def test_a_stopped_run_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    short = dataclasses.replace(TINY, env_steps=256, checkpoint_every=256)
    _, first = train(short, tmp_path, log=lambda _: None)
    lines: list[str] = []
    _, resumed = train(
        dataclasses.replace(short, env_steps=512), tmp_path, log=lines.append
    )
    assert lines[0].startswith(f"resumed at {first.env_steps} env steps")
    assert resumed.env_steps == 2 * first.env_steps
    assert resumed.updates == 2 * first.updates
    with pytest.raises(ValueError, match=r"other settings.*channels"):
        train(dataclasses.replace(short, channels=8), tmp_path, log=lambda _: None)


def test_teacher_games_hold_the_heuristics_best_points_and_the_results() -> None:
    config = dataclasses.replace(
        TINY, board_size=7, teacher_samples=300, random_opening=2, num_envs=8
    )
    planes, masks, best, results = teacher_games(config)
    count = planes.shape[0]
    assert count >= 300 and masks.shape == best.shape == (count, 49)
    assert best.any(axis=1).all() and not (best & ~masks).any()  # best points legal
    teacher = HeuristicAgent(config.game, seed=0)
    scores = teacher.scores_batch(planes[:20])
    assert np.array_equal(best[:20], scores == scores.max(axis=1, keepdims=True))
    assert set(np.unique(results)) <= {-1.0, 0.0, 1.0} and (results != 0).any()
    stones = planes[..., 0].sum(axis=(1, 2)) + planes[..., 1].sum(axis=(1, 2))
    assert stones.min() >= 2  # every game starts from its random opening


def test_symmetric_batch_moves_planes_and_cell_arrays_together() -> None:
    rng = np.random.default_rng(0)
    planes = rng.integers(0, 2, (3, 5, 5, 5), dtype=np.int8)
    masks = rng.integers(0, 2, (3, 25)).astype(bool)
    for symmetry in range(8):
        moved_planes, (moved_masks,) = symmetric_batch(
            torch.as_tensor(planes), [torch.as_tensor(masks)], symmetry
        )
        assert np.array_equal(moved_planes.numpy(), transform_planes(planes, symmetry))
        grids = masks.reshape(3, 5, 5, 1)
        expected = transform_planes(grids, symmetry).reshape(3, 25)
        assert np.array_equal(moved_masks.numpy(), expected)
        # a point keeps its mark: where the mark of cell 7 goes is transform_action
        if masks[0, 7]:
            assert moved_masks[0, transform_action(7, 5, symmetry)]


def test_the_curriculum_weakens_the_opponent_while_the_learner_loses() -> None:
    opponent = NoisyHeuristic(GameConfig(7, 4), noise=0.5, step=0.1, seed=0)
    opponent.adapt(0.2)
    assert opponent.noise == pytest.approx(0.6)
    for _ in range(10):
        opponent.adapt(0.9)
    assert opponent.noise == 0.0  # never below the plain heuristic
    planes = np.zeros((4, 7, 7, 5), dtype=np.int8)
    masks = np.ones((4, 49), dtype=np.int8)
    assert (opponent.act_batch(planes, masks, np.arange(4)) == 24).all()  # centre


def test_advantages_stop_at_the_end_of_a_game() -> None:
    # one game over three steps: it ends (+1) at step 1, a new game goes on at step 2
    rollout = Rollout(
        planes=torch.zeros(3, 1), masks=torch.zeros(3, 1), actions=torch.zeros(3, 1),
        log_probs=torch.zeros(3, 1), values=torch.tensor([[0.5], [0.25], [0.0]]),
        rewards=torch.tensor([[0.0], [1.0], [0.0]]),
        ended=torch.tensor([[0.0], [1.0], [0.0]]), last_values=torch.tensor([0.5]),
    )  # fmt: skip
    advantages = rollout.advantages(gamma=0.5, gae_lambda=1.0)
    # step 2: 0 + 0.5 * 0.5 - 0 = 0.25; step 1: 1 - 0.25 (no bootstrap) = 0.75;
    # step 0: 0 + 0.5 * 0.25 - 0.5 + 0.5 * 0.75 = 0.0
    assert torch.allclose(advantages.flatten(), torch.tensor([0.0, 0.75, 0.25]))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"channels": 0}, "channels"),
        ({"learning_rate": float("nan")}, "learning_rate"),
        ({"teacher_noise": 1.5}, "teacher_noise"),
        ({"board_size": 6, "win_length": 7}, "win_length"),
    ],
)
def test_bad_settings_are_refused_by_name(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PPOConfig(**options)
