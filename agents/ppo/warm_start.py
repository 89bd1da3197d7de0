"""PPO's warm start: supervised steps on the teacher games before PPO.

The positions are :mod:`agents.training.teacher_games`' (the games AlphaZero distils
too); the policy target of each is the uniform choice among the teacher's best points
(the heuristic's top score: it plays one of them at random, so its ties do not read as
noise), the value target the game's result. Steps run under random board symmetries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import torch
from torch.nn import functional

from agents.ppo.config import PPOConfig
from agents.training.teacher_games import TeacherPositions, teacher_games
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


Forward = Callable[[torch.Tensor], tuple[torch.Tensor, torch.Tensor]]
"""A network read as the warm start reads it: channels-last planes (n, N, N, planes)
to cell scores (n, N*N) and values (n,)."""


def warm_start(
    network: PolicyNetwork, config: PPOConfig, generator: torch.Generator
) -> dict[str, float]:
    """The teacher games (``config.teacher``), then :func:`learn_teacher_positions`
    with the recipe's settings. Returns the last epoch's losses and how often the
    network's top move is one of the teacher's best."""
    positions = teacher_games(
        config.game, config.teacher, np.random.default_rng(config.seed)
    )
    network.train()
    return learn_teacher_positions(
        network, network.parameters(), positions, config, generator
    )[-1]


def learn_teacher_positions(
    forward: Forward,
    parameters: Iterable[torch.nn.Parameter],
    positions: TeacherPositions,
    config: PPOConfig,
    generator: torch.Generator,
) -> list[dict[str, float]]:
    """Adam steps under a one-cycle learning rate (``teacher_learning_rate`` at its
    peak, ``teacher_epochs`` passes of ``minibatch`` positions, each batch under a
    random board symmetry): cross-entropy against the uniform choice among the
    teacher's best points, plus ``value_weight`` times the squared error of the
    results. Any network that ``forward`` reads learns this way (the recipe's, an SB3
    policy's). Returns each epoch's losses and agreement."""
    planes, masks, best, results = (
        torch.as_tensor(array)
        for array in (positions.planes, positions.masks.astype(bool), positions.best,
                      positions.values)
    )  # fmt: skip
    optimizer = torch.optim.Adam(parameters, lr=config.teacher_learning_rate)
    count = planes.shape[0]
    steps_per_epoch = max(1, count // config.minibatch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, config.teacher_learning_rate,
        total_steps=steps_per_epoch * config.teacher_epochs,
    )  # fmt: skip
    epochs = []
    for _ in range(config.teacher_epochs):
        order = torch.randperm(count, generator=generator)
        totals = {"policy_loss": 0.0, "value_loss": 0.0, "agreement": 0.0}
        for step in range(steps_per_epoch):
            rows = order[step * config.minibatch : (step + 1) * config.minibatch]
            symmetry = int(torch.randint(8, (1,), generator=generator))
            batch, (legal, top) = symmetric_batch(
                planes[rows], [masks[rows], best[rows]], symmetry
            )
            scores, values = forward(batch)
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
        epochs.append(totals)
    return epochs
