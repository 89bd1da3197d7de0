"""How far a run's networks drift between checkpoints: on the positions of 300
heuristic games (seeded), each network's KL divergence from the first network's moves
and from the previous one's, its agreement with the heuristic's best points, and its
entropy.

Run from the repository root, with policy files (by default torchrl_warm_start_32000's
2 CPU-h checkpoints, then its final network and the half hour's; ``sb3:PATH`` reads an
SB3 MaskablePPO zip or policy file):
python runs/experiments/torchrl-warm-start-drift/kl_drift.py [POLICY.pt | sb3:PATH ...]
"""

import sys
from dataclasses import replace

import numpy as np
import torch

from agents.ppo.config import TEACHER_PRESET
from agents.sb3.policy_agent import load_agent
from agents.training.policy_anchor import kl_from, move_log_probabilities
from agents.training.teacher_games import teacher_games
from agents.training.torch_policy import load_policy
from gomoku_env.config import GameConfig

HERE = "runs/experiments/torchrl-warm-start-drift/"
NETWORKS = [
    # The 2 CPU-h run's checkpoints at 254,186, 500,474 and 754,917 env steps,
    *(HERE + f"policy-000{steps}.pt" for steps in ("254186", "500474", "754917")),
    # its final network, and the half hour's.
    "docs/zoo/torchrl_warm_start_32000-s1-2h.pt",
    "docs/zoo/torchrl_warm_start_32000-s1.pt",
]


def main(networks: list[str]) -> None:
    torch.set_num_threads(1)
    game = GameConfig(9, 5)
    rng = np.random.default_rng(7)
    positions = teacher_games(game, replace(TEACHER_PRESET, games=300), rng)
    planes = torch.as_tensor(positions.planes)
    legal = torch.as_tensor(positions.masks).bool()
    best = torch.as_tensor(positions.best)
    log_probs = [
        move_log_probabilities(scores_of(path, planes, legal), legal)
        for path in networks
    ]
    zero = torch.zeros(())

    def kl(anchor: torch.Tensor, policy: torch.Tensor) -> float:
        return float(kl_from(anchor, policy).mean())

    for index, (path, mine) in enumerate(zip(networks, log_probs, strict=True)):
        top = mine.argmax(-1)
        agree = best[torch.arange(len(top)), top].float().mean()
        entropy = -(mine.exp() * mine).where(legal, zero).sum(-1).mean()
        print(
            f"{path} KL(first||this)={kl(log_probs[0], mine):.3f} "
            f"KL(previous||this)={kl(log_probs[max(index - 1, 0)], mine):.3f} "
            f"agree={agree:.3f} entropy={entropy:.3f}"
        )


def scores_of(path: str, planes: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """The network's move scores (logits) on ``planes``, from a torch policy file or,
    after ``sb3:``, an SB3 model's masked distribution."""
    with torch.no_grad():
        if not path.startswith("sb3:"):
            return load_policy(path)(planes)[0]
        agent = load_agent(path=path.removeprefix("sb3:"))
        batch = planes.numpy()
        if agent.channels_first:
            batch = batch.transpose(0, 3, 1, 2)
        tensor, _ = agent.policy.obs_to_tensor(batch)
        distribution = agent.policy.get_distribution(tensor, action_masks=legal.numpy())
        return distribution.distribution.logits


if __name__ == "__main__":
    main(sys.argv[1:] or NETWORKS)
