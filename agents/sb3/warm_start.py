"""A warm start for an SB3 actor-critic policy: the PPO recipe's supervised steps.

A policy from random weights never beats the heuristic, so training against it
teaches nothing (every game lost, the same reward); one that starts from the
heuristic's moves wins some games there and has something to learn from. The
positions are :mod:`agents.training.teacher_games`'; the steps are the PPO recipe's own
(:func:`agents.ppo.warm_start.learn_teacher_positions`: the uniform choice among the
teacher's best points, the game's result for the value, random board symmetries), so
SB3's policy and the recipe's network learn the same thing the same way.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import torch
from stable_baselines3.common.policies import ActorCriticPolicy

from agents.ppo.config import TEACHER_PRESET, PPOConfig
from agents.ppo.warm_start import learn_teacher_positions
from agents.sb3.features import is_channels_last
from agents.training.teacher_games import TeacherPositions, teacher_games
from gomoku_env.config import GameConfig


def teach_heuristic_moves(
    policy: ActorCriticPolicy,
    game: GameConfig,
    games: int,
    epochs: int,
    learning_rate: float,
    minibatch: int,
    seed: int,
) -> list[float]:
    """The PPO recipe's warm start on ``policy``: its teacher games (``games`` of
    them, seeded by ``seed``), then :func:`learn_teacher_moves` with ``epochs`` passes
    of ``minibatch`` positions at a peak ``learning_rate``. Returns, per epoch, the
    fraction of positions whose top move was one of the teacher's best."""
    config = replace(
        PPOConfig(), board_size=game.board_size, win_length=game.win_length,
        teacher=replace(TEACHER_PRESET, games=games),
        teacher_epochs=epochs, teacher_learning_rate=learning_rate,
        minibatch=minibatch,
    )  # fmt: skip
    positions = teacher_games(game, config.teacher, np.random.default_rng(seed))
    generator = torch.Generator().manual_seed(seed)
    return learn_teacher_moves(policy, positions, config, generator)


def learn_teacher_moves(
    policy: ActorCriticPolicy,
    positions: TeacherPositions,
    config: PPOConfig,
    generator: torch.Generator,
) -> list[float]:
    """``policy`` learns ``positions`` with ``config``'s warm-start settings
    (``teacher_epochs``, ``teacher_learning_rate``, ``minibatch``, ``value_weight``):
    its features, then its action and value heads, read the planes in the layout its
    observation space declares. Returns, per epoch, the fraction of positions whose top
    move was one of the teacher's best."""
    channels_last = is_channels_last(policy.observation_space.shape)

    def forward(planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        observations = planes if channels_last else planes.permute(0, 3, 1, 2)
        latent_policy, latent_value = policy.mlp_extractor(
            policy.extract_features(observations)
        )
        return policy.action_net(latent_policy), policy.value_net(
            latent_value
        ).flatten()

    policy.set_training_mode(True)
    epochs = learn_teacher_positions(
        forward, policy.parameters(), positions, config, generator
    )
    policy.set_training_mode(False)
    return [epoch["agreement"] for epoch in epochs]
