"""A warm start for an SB3 actor-critic policy: supervised steps on teacher games.

A policy from random weights never beats the heuristic, so training against it
teaches nothing (every game lost, the same reward); one that starts from the
heuristic's moves wins some games there and has something to learn from. The
positions are :mod:`agents.training.teacher_games`'; the targets are those of PPO's own
warm start (:mod:`agents.ppo.warm_start`): the uniform choice among the teacher's best
points, and the game's result for the value.
"""

from __future__ import annotations

import torch
from stable_baselines3.common.policies import ActorCriticPolicy
from torch.nn import functional

from agents.training.teacher_games import TeacherPositions

MASKED_SCORE = -1e30
"""The score of an illegal point: no probability after the softmax."""


def learn_teacher_moves(
    policy: ActorCriticPolicy,
    positions: TeacherPositions,
    epochs: int,
    learning_rate: float,
    batch_size: int,
    seed: int,
) -> list[float]:
    """Adam steps on cross-entropy of the policy against the uniform choice among the
    teacher's best points plus squared error of the value against the games' results.

    The policy reads channels-first planes (the CNN layout of the SB3 envs). Returns,
    per epoch, the fraction of positions whose top move was one of the teacher's best.
    """
    planes = torch.as_tensor(positions.planes.transpose(0, 3, 1, 2)).float()
    legal = torch.as_tensor(positions.masks.astype(bool))
    best, results = torch.as_tensor(positions.best), torch.as_tensor(positions.values)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    generator = torch.Generator().manual_seed(seed)
    agreements = []
    policy.set_training_mode(True)
    for _ in range(epochs):
        order, agreed = torch.randperm(len(results), generator=generator), 0
        for rows in order.split(batch_size):
            latent_policy, latent_value = policy.mlp_extractor(
                policy.extract_features(planes[rows])
            )
            scores = policy.action_net(latent_policy).masked_fill(
                ~legal[rows], MASKED_SCORE
            )
            top = best[rows].float()
            policy_loss = functional.cross_entropy(
                scores, top / top.sum(dim=1, keepdim=True)
            )
            values = policy.value_net(latent_value).flatten()
            loss = policy_loss + functional.mse_loss(values, results[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            agreed += int(top.gather(1, scores.argmax(dim=1, keepdim=True)).sum())
        agreements.append(agreed / len(results))
    policy.set_training_mode(False)
    return agreements
