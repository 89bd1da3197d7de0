"""The warm start's anchor: a frozen copy, and a KL term that stays finite."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from agents.training.policy_anchor import (  # noqa: E402
    PolicyAnchor,
    kl_from,
    move_log_probabilities,
)
from agents.training.torch_policy import PolicyNetwork, PolicyShape  # noqa: E402


def positions(count: int = 6, side: int = 5) -> tuple[torch.Tensor, torch.Tensor]:
    """Random stones on a ``side`` board: planes (count, side, side, 5), legal masks."""
    generator = torch.Generator().manual_seed(0)
    stones = torch.randint(0, 3, (count, side, side), generator=generator)
    planes = torch.zeros(count, side, side, 5, dtype=torch.int8)
    planes[..., 0] = stones == 1
    planes[..., 1] = stones == 2
    return planes, (stones == 0).flatten(1)


def test_the_kl_is_zero_at_the_anchor_positive_away_and_finite_with_masked_cells():
    scores = torch.tensor([[2.0, 0.0, 500.0, -1.0]])
    legal = torch.tensor([[True, True, False, True]])
    anchor = move_log_probabilities(scores, legal)
    assert anchor[0, 2] < -1e29 and torch.exp(anchor[0, [0, 1, 3]]).sum() == 1
    assert kl_from(anchor, anchor).item() == pytest.approx(0.0, abs=1e-6)
    # The policy puts (after float32 rounding) zero probability on a legal cell the
    # anchor likes: torch's kl_divergence would be infinite, this is large and finite.
    peaked = move_log_probabilities(torch.tensor([[-200.0, 0.0, 0.0, 0.0]]), legal)
    assert torch.exp(peaked[0, 0]) == 0
    away = kl_from(anchor, peaked).item()
    expected = float(torch.exp(anchor[0, 0]) * (anchor[0, 0] - peaked[0, 0]))
    assert away > 100 and away == pytest.approx(expected, rel=0.05)


def test_the_anchor_is_a_frozen_copy_of_the_network_as_it_was():
    torch.manual_seed(0)
    network = PolicyNetwork(PolicyShape(channels=4, layers=1))
    planes, legal = positions()
    anchor = PolicyAnchor(network)
    before = anchor.log_probabilities(planes, legal)
    assert not before.requires_grad
    assert not any(p.requires_grad for p in anchor.network.parameters())
    # Training the network moves its moves away and leaves the anchor's where they were.
    optimizer = torch.optim.SGD(network.parameters(), lr=1.0)
    scores, _ = network(planes)
    (-scores[:, 0].sum()).backward()
    optimizer.step()
    scores, _ = network(planes)
    moved = move_log_probabilities(scores, legal)
    assert torch.equal(anchor.log_probabilities(planes, legal), before)
    assert kl_from(before, moved).mean() > 0.01
    assert kl_from(before, moved).shape == (len(planes),)
