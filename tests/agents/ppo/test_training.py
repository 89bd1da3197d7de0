"""The PPO recipe: teacher best points, symmetries, advantages, a tiny run that learns,
and resuming a run from its checkpoint."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.base import OtherRulesWarning, RandomAgent
from agents.classic.heuristic import HeuristicAgent
from agents.ppo.config import TEACHER_PRESET, PPOConfig
from agents.ppo.rollout import NoisyHeuristic, Rollout
from agents.ppo.training import PPORun
from agents.ppo.warm_start import symmetric_batch
from agents.training.head_to_head import play_match
from agents.training.run_budget import read_checkpoint_rows
from agents.training.teacher_games import TeacherGamesConfig, teacher_games
from agents.training.torch_policy import (
    NetworkAgent,
    PolicyNetwork,
    PolicyShape,
    load_policy,
)
from gomoku_env.board import transform_action, transform_planes
from gomoku_env.config import GameConfig, Rule

TINY = PPOConfig(
    board_size=6, win_length=4, opponent_noise=1.0, random_opening=0, channels=16,
    layers=2, teacher=TeacherGamesConfig(games=0), num_envs=32, rollout_steps=8,
    epochs=2, minibatch=128, learning_rate=1e-3, entropy=0.01, env_steps=24_000, cpu_hours=0.0,
    checkpoint_every=8_000, threads=1, seed=1,
)  # fmt: skip


def score_against_random(network: PolicyNetwork, config: PPOConfig) -> float:
    """The greedy policy's score over 60 games against random (random openings)."""
    agent = NetworkAgent(network)
    return play_match(agent, RandomAgent(seed=3), config.game, 60, seed=9).score


def test_a_tiny_run_beats_its_untrained_start(tmp_path: Path) -> None:
    torch.manual_seed(TINY.seed)
    start = score_against_random(PolicyNetwork(PolicyShape(16, 2)), TINY)
    points = []
    run = PPORun(TINY, tmp_path)
    state = run.run(on_point=lambda _, s: points.append(s.env_steps), point_every=8_000)
    assert state.env_steps >= TINY.env_steps and state.cpu_seconds > 0
    assert points[0] == 0 and points[-1] == state.env_steps and len(points) >= 3
    end = score_against_random(run.network, TINY)
    assert end >= start + 0.2, (start, end)
    saved = load_policy(tmp_path / "policy.pt")
    planes = torch.zeros(1, 6, 6, 5, dtype=torch.int8)
    assert torch.equal(saved(planes)[0], run.network.eval()(planes)[0])
    # The policy of every checkpoint is kept, for a learning curve; the last is the end.
    rows = read_checkpoint_rows(tmp_path / "checkpoints.csv")
    steps = [int(row["steps"]) for row in rows]
    assert len(steps) == 3 and steps == sorted(steps) and steps[-1] == state.env_steps
    assert 8_000 <= steps[0] < 9_000
    assert float(rows[-1]["cpu_seconds"]) == pytest.approx(state.cpu_seconds, abs=0.1)
    last = load_policy(tmp_path / rows[-1]["path"])
    assert torch.equal(last(planes)[0], saved(planes)[0])


@pytest.mark.parametrize(
    ("damage", "refusal"),
    [
        (lambda saved: [1, 2], "is not a PPO checkpoint"),
        (lambda saved: {**saved, "state": {**saved["state"], "cpu_seconds": math.nan}},
         "RunState.cpu_seconds must be a finite number >= 0"),
        (lambda saved: {**saved, "state": {**saved["state"], "env_steps": 1.5}},
         "RunState.env_steps must be an int"),
        (lambda saved: {k: v for k, v in saved.items() if k != "optimizer"},
         "is not a PPO checkpoint: 'optimizer'"),
        (lambda saved: {**saved, "network": {
            name: torch.full_like(tensor, math.inf)
            for name, tensor in saved["network"].items()}}, "not finite"),
    ],
)  # fmt: skip
def test_a_damaged_checkpoint_is_one_error_naming_it(
    tmp_path: Path, damage, refusal
) -> None:
    """Resuming reads counters and weights the run can trust: a NaN CPU time would
    end the budget at once, infinite weights would train nothing."""
    short = dataclasses.replace(TINY, env_steps=256, checkpoint_every=256)
    PPORun(short, tmp_path).run()
    path = tmp_path / "checkpoint.pt"
    torch.save(damage(torch.load(path, weights_only=True)), path)
    with pytest.raises(ValueError, match=refusal) as caught:
        PPORun(dataclasses.replace(short, env_steps=512), tmp_path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_a_stopped_run_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    short = dataclasses.replace(TINY, env_steps=256, checkpoint_every=256)
    first = PPORun(short, tmp_path).run()
    again = PPORun(dataclasses.replace(short, env_steps=512), tmp_path)
    assert again.resumed and again.state.env_steps == first.env_steps
    resumed = again.run()
    assert resumed.env_steps == 2 * first.env_steps
    assert resumed.updates == 2 * first.updates
    # The kept policies of both runs, each step count once.
    rows = read_checkpoint_rows(tmp_path / "checkpoints.csv")
    assert [int(row["steps"]) for row in rows] == [first.env_steps, resumed.env_steps]
    with pytest.raises(ValueError, match=r"other settings.*channels"):
        PPORun(dataclasses.replace(short, channels=8), tmp_path)
    with pytest.raises(ValueError, match=r"other settings.*'rule': \('freestyle'"):
        PPORun(dataclasses.replace(short, rule="standard"), tmp_path)


def test_every_game_of_a_run_follows_its_rule(tmp_path: Path) -> None:
    config = dataclasses.replace(TINY, rule=Rule.RENJU, win_length=5, env_steps=256)
    assert config.rule == "renju" and config.game.rule is Rule.RENJU
    run = PPORun(config, tmp_path)
    run.run()
    with pytest.warns(OtherRulesWarning, match="rule renju"):
        load_policy(tmp_path / "policy.pt", GameConfig(6, 5))


def test_the_warm_start_reports_its_losses_and_reports_come_every_n_updates(
    tmp_path: Path,
) -> None:
    teacher = dataclasses.replace(TEACHER_PRESET, games=4)
    config = dataclasses.replace(
        TINY, teacher=teacher, teacher_epochs=1, env_steps=5 * 256, report_every=2
    )
    rows: list[tuple[int, dict]] = []
    PPORun(config, tmp_path).run(
        report=lambda state, row: rows.append((state.updates, row))
    )
    assert rows[0][1]["note"].startswith("warm start on 4 teacher games")
    assert 0.0 <= rows[0][1]["agreement"] <= 1.0
    assert [updates for updates, _ in rows[1:]] == [2, 4]
    assert {"won", "games", "clipped", "opponent_noise"} <= set(rows[1][1])


def test_teacher_best_points_are_the_heuristics_top_scores() -> None:
    game = GameConfig(7, 4)
    positions = teacher_games(
        game, TeacherGamesConfig(games=8, opening_moves=2), np.random.default_rng(1)
    )
    count = positions.planes.shape[0]
    assert positions.masks.shape == positions.best.shape == (count, 49)
    assert positions.best.any(axis=1).all()
    assert not (positions.best & ~positions.masks.astype(bool)).any()  # legal
    teacher = HeuristicAgent(game, seed=0)
    scores = teacher.scores_batch(positions.planes[:20])
    top = scores == scores.max(axis=1, keepdims=True)
    assert np.array_equal(positions.best[:20], top)
    assert positions.best[np.arange(count), positions.labels].all()  # it plays one
    assert set(np.unique(positions.values)) <= {-1.0, 0.0, 1.0}


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
        ({"max_grad_norm": 0.0}, "max_grad_norm"),
        ({"board_size": 6, "win_length": 7}, "win_length"),
        ({"rule": "gomoku"}, "unknown rule 'gomoku'"),
        ({"rule": "renju", "win_length": 4}, "renju is played to five"),
    ],
)
def test_bad_settings_are_refused_by_name(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PPOConfig(**options)
