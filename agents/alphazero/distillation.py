"""Distillation: a new AlphaZero network learns the teacher games before self-play.

The games and their labels come from :mod:`agents.training.teacher_games` (the same
games PPO warm-starts on); here every position becomes a replay sample whose policy
target is the teacher's move (one-hot) and whose value target is the game's result for
the side to move, and the learner takes ``steps`` gradient steps on them. The network
learns in minutes what five in a row means, and self-play improves on it from there.
"""

from __future__ import annotations

import numpy as np

from agents.alphazero.learner import Learner, LossTerms
from agents.alphazero.replay import Batch, ReplayBuffer
from agents.alphazero.training_config import DistillationConfig
from agents.training.teacher_games import TeacherPositions, teacher_games
from gomoku_env.config import GameConfig


def teacher_samples(positions: TeacherPositions, game: GameConfig) -> Batch:
    """The replay samples of teacher positions: one-hot policy targets of the
    teacher's moves, the games' results as value targets."""
    policy = np.zeros((len(positions.labels), game.cells), dtype=np.float32)
    policy[np.arange(len(positions.labels)), positions.labels] = 1.0
    return Batch(positions.planes, policy, positions.values)


def distil(
    learner: Learner,
    game: GameConfig,
    config: DistillationConfig,
    batch_size: int,
    rng: np.random.Generator,
) -> tuple[TeacherPositions, list[LossTerms]]:
    """Teach ``learner``'s network the heuristic: play the games, take the steps.

    Returns the teacher positions and the loss of every step (the first and last show
    how much was learned).
    """
    positions = teacher_games(game, config, rng)
    samples = teacher_samples(positions, game)
    buffer = ReplayBuffer(game.board_size, max(1, len(samples.value)))
    buffer.add(samples.planes, samples.policy, samples.value)
    losses = [learner.step(buffer.sample(batch_size, rng)) for _ in range(config.steps)]
    return positions, losses
