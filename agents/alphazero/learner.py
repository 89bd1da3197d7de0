"""The learning step: AlphaZero's loss and the optimiser that minimises it.

Loss = (value − outcome)² + cross-entropy between the search's full visit distribution
and the network's policy over the legal cells; the L2 term is the optimiser's weight
decay (Adam adds ``weight_decay · w`` to each gradient, which is exactly an L2 penalty).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch.nn import functional

from agents.alphazero.network import (
    PolicyValueNet,
    masked_log_softmax,
    planes_to_tensor,
)
from agents.alphazero.replay import Batch
from agents.alphazero.training_config import LearnerConfig


@dataclass(frozen=True)
class LossTerms:
    """The parts of one step's loss, as plain floats for logs."""

    total: float
    value: float
    policy: float


def alphazero_loss(
    network: PolicyValueNet,
    batch: Batch,
    device: torch.device,
    value_weight: float = 1.0,
) -> tuple[torch.Tensor, LossTerms]:
    """The loss on ``batch`` (a tensor to backpropagate) and its parts."""
    logits, values = network(planes_to_tensor(batch.planes, device))
    masks = torch.from_numpy(batch.masks).to(device)
    target_policy = torch.from_numpy(batch.policy).to(device)
    target_value = torch.from_numpy(batch.value).to(device)
    value_loss = functional.mse_loss(values, target_value)
    policy_loss = -(target_policy * masked_log_softmax(logits, masks)).sum(dim=1).mean()
    total = value_weight * value_loss + policy_loss
    terms = LossTerms(total.item(), value_loss.item(), policy_loss.item())
    return total, terms


class Learner:
    """Owns the network being trained and its optimiser; one call per gradient step."""

    def __init__(
        self,
        network: PolicyValueNet,
        config: LearnerConfig | None = None,
        device: torch.device | str = "cpu",
    ) -> None:
        self.config = config if config is not None else LearnerConfig()
        self.device = torch.device(device)
        self.network = network.to(self.device)
        self.optimizer = torch.optim.Adam(
            self.network.parameters(),
            lr=self.config.learning_rate,
            weight_decay=self.config.weight_decay,
        )
        self.steps = 0

    def step(self, batch: Batch) -> LossTerms:
        """One gradient step on ``batch``."""
        self.network.train()
        loss, terms = alphazero_loss(
            self.network, batch, self.device, self.config.value_weight
        )
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.network.eval()
        self.steps += 1
        return terms

    def set_learning_rate(self, learning_rate: float) -> None:
        """Change the step size (for a schedule)."""
        for group in self.optimizer.param_groups:
            group["lr"] = learning_rate
