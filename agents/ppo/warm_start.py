"""PPO's warm start: supervised steps on the teacher games before PPO.

The positions are :mod:`agents.training.teacher_games`' (the games AlphaZero distils
too); the policy target of each is the uniform choice among the teacher's best points
(the heuristic's top score: it plays one of them at random, so its ties do not read as
noise), the value target the game's result. Steps run under random board symmetries.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.nn import functional

from agents.ppo.config import PPOConfig
from agents.training.teacher_games import teacher_games
from agents.training.torch_policy import PolicyNetwork, mask_scores
from gomoku_env.board import symmetry_permutations


def symmetric_batch(
    planes: torch.Tensor, cells: list[torch.Tensor], symmetry: int
) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """A batch of positions and per-cell arrays (n, N*N) under one board symmetry."""
    size = planes.shape[1]
    gather = torch.from_numpy(symmetry_permutations(size)[symmetry].copy())
    flat = planes.reshape(planes.shape[0], size * size, -1)[:, gather]
    return flat.reshape(planes.shape), [array[:, gather] for array in cells]


def warm_start(
    network: PolicyNetwork, config: PPOConfig, generator: torch.Generator
) -> dict[str, float]:
    """Supervised steps on the teacher games (``config.teacher``): cross-entropy
    against the uniform choice among the teacher's best points, plus ``value_weight``
    times the squared error of the results. Returns the last epoch's losses and how
    often the network's top move is one of the teacher's best."""
    positions = teacher_games(
        config.game, config.teacher, np.random.default_rng(config.seed)
    )
    planes, masks, best, results = (
        torch.as_tensor(array)
        for array in (positions.planes, positions.masks.astype(bool), positions.best,
                      positions.values)
    )  # fmt: skip
    optimizer = torch.optim.Adam(network.parameters(), lr=config.teacher_learning_rate)
    count = planes.shape[0]
    steps_per_epoch = max(1, count // config.minibatch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, config.teacher_learning_rate,
        total_steps=steps_per_epoch * config.teacher_epochs,
    )  # fmt: skip
    totals: dict[str, float] = {}
    network.train()
    for _ in range(config.teacher_epochs):
        order = torch.randperm(count, generator=generator)
        totals = {"policy_loss": 0.0, "value_loss": 0.0, "agreement": 0.0}
        for step in range(steps_per_epoch):
            rows = order[step * config.minibatch : (step + 1) * config.minibatch]
            symmetry = int(torch.randint(8, (1,), generator=generator))
            batch, (legal, top) = symmetric_batch(
                planes[rows], [masks[rows], best[rows]], symmetry
            )
            scores, values = network(batch)
            scores = mask_scores(scores, legal)
            policy_loss = functional.cross_entropy(
                scores, top / top.sum(dim=1, keepdim=True)
            )
            value_loss = functional.mse_loss(values, results[rows])
            loss = policy_loss + config.value_weight * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            agreement = top.gather(1, scores.argmax(dim=1, keepdim=True)).float().mean()
            totals["policy_loss"] += policy_loss.item() / steps_per_epoch
            totals["value_loss"] += value_loss.item() / steps_per_epoch
            totals["agreement"] += agreement.item() / steps_per_epoch
    return totals
