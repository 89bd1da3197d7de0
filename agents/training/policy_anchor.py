"""A frozen copy of a warm-started network, and the KL term that holds a policy near it.

An RL update that starts from a network trained on a teacher's moves may wander from
it: REINFORCE's noise took the zoo's TorchRL run a nat or more from one checkpoint to
the next and, over 2 CPU hours, 200 Elo below where it stood
(``runs/experiments/torchrl-warm-start-drift/``). Adding
``weight * KL(anchor's moves ‖ policy's moves)`` on the positions being trained lets
the policy move where the returns say and pulls it back from where the noise took it
(AlphaStar held its agent near its supervised policy the same way). The TorchRL and
Tianshou examples take it as ``--anchor-weight``.
"""

from __future__ import annotations

import copy

import torch

from agents.training.torch_policy import PolicyNetwork, mask_scores


def move_log_probabilities(scores: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of the softmax of ``scores`` over the legal cells of ``masks``
    (illegal cells get about -1e30, finite, so a KL term stays finite)."""
    return torch.log_softmax(mask_scores(scores, masks), dim=-1)


def kl_from(anchor: torch.Tensor, policy: torch.Tensor) -> torch.Tensor:
    """KL(anchor ‖ policy) for each position, from two rows of log-probabilities over
    the same legal cells. Computed from the log-probabilities themselves, which stay
    finite where a probability rounds to zero (torch's ``kl_divergence`` makes that
    infinite, and one infinite term would end a run)."""
    return (anchor.exp() * (anchor - policy)).sum(dim=-1)


class PolicyAnchor:
    """A frozen copy of ``network`` as it is now (the warm start), whose moves a loss
    holds the trained network near."""

    def __init__(self, network: PolicyNetwork) -> None:
        self.network = copy.deepcopy(network).eval().requires_grad_(False)

    def log_probabilities(
        self, planes: torch.Tensor, masks: torch.Tensor
    ) -> torch.Tensor:
        """The anchor's move log-probabilities on ``planes`` (their legal ``masks``),
        without gradients: compute them once for all the updates on a batch."""
        with torch.no_grad():
            scores, _ = self.network(planes)
        return move_log_probabilities(scores, masks)
