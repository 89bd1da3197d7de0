"""How peaked and how alive a policy file's network is, on 40 seeded random 9x9 positions.

    python runs/experiments/zoo-torchrl-lr5e-3/score_spread.py POLICY.pt ...

For each file: the median and largest spread of the scores over the legal cells (0:
every cell the same score, a dead head; thousands: a policy collapsed onto one move),
the live channels of the trunk's last layer (any position where it is positive), and
the range of the value head.
"""

from __future__ import annotations

import sys

import numpy as np
import torch

from agents.training.torch_policy import load_policy
from gomoku_env.planes import OBSERVER_IS_BLACK, OPPONENT_STONES, OWN_STONES

SIDE, POSITIONS = 9, 40


def random_positions(seed: int = 0) -> torch.Tensor:
    """Channels-last planes of positions with 0 to 29 stones, alternating colours."""
    generator = np.random.default_rng(seed)
    boards = np.zeros((POSITIONS, SIDE, SIDE, 5), np.int8)
    for board in boards:
        stones = int(generator.integers(0, 30))
        for index, cell in enumerate(generator.choice(SIDE * SIDE, stones, False)):
            plane = OWN_STONES if index % 2 else OPPONENT_STONES
            board[cell // SIDE, cell % SIDE, plane] = 1
        board[..., OBSERVER_IS_BLACK] = stones % 2 == 0
    return torch.as_tensor(boards)


def describe(path: str, planes: torch.Tensor) -> str:
    network = load_policy(path)
    trunk_output: dict[str, torch.Tensor] = {}
    network.trunk.register_forward_hook(
        lambda module, inputs, output: trunk_output.update(last=output)
    )
    with torch.no_grad():
        scores, values = network(planes)
    legal = (planes[..., OWN_STONES] + planes[..., OPPONENT_STONES] == 0).flatten(1)
    spreads = [
        float(s[free].max() - s[free].min())
        for s, free in zip(scores, legal, strict=True)
    ]
    live = (trunk_output["last"] > 0).any(dim=0).any(dim=(1, 2))
    return (
        f"{path}: score spread median {np.median(spreads):.1f}, max {max(spreads):.1f};"
        f" live channels {int(live.sum())}/{len(live)};"
        f" values {float(values.min()):.3f} … {float(values.max()):.3f}"
    )


if __name__ == "__main__":
    torch.set_num_threads(1)
    planes = random_positions()
    for name in sys.argv[1:]:
        print(describe(name, planes))
