"""The gating match of training: the current network against the previous best (its
score decides whether it becomes ``best.pt``) and against the pure MCTS baseline, in
short matches with alternating colours."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from agents.alphazero.agent import AlphaZeroAgent
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.training_config import TrainingConfig
from agents.budget import Budget
from agents.specs.parse import make_agent, registered_names
from agents.training.head_to_head import play_match

EVALUATION_OPENING_STONES = 2


def evaluation_row(
    network: PolicyValueNet,
    best: PolicyValueNet,
    config: TrainingConfig,
    device: torch.device,
    rng: np.random.Generator,
) -> dict[str, Any]:
    """Scores of ``network`` against ``best`` and against MCTS (None if unavailable)."""
    games = config.evaluation_games
    seed = int(rng.integers(2**31))

    def agent(net: PolicyValueNet) -> AlphaZeroAgent:
        return AlphaZeroAgent(
            config.game,
            net,
            Budget(simulations=config.evaluation_simulations),
            device=str(device),
            seed=seed,
        )

    current = agent(network)
    vs_best = play_match(
        current,
        agent(best.to(device)),
        config.game,
        games,
        seed,
        EVALUATION_OPENING_STONES,
    )
    row: dict[str, Any] = {"win_rate_vs_best": vs_best.score, "win_rate_vs_mcts": None}
    if config.mcts_simulations and "mcts" in registered_names():
        mcts = make_agent(
            f"mcts:simulations={config.mcts_simulations}", config.game, seed
        )
        vs_mcts = play_match(
            current, mcts, config.game, games, seed + 1, EVALUATION_OPENING_STONES
        )
        row["win_rate_vs_mcts"] = vs_mcts.score
    return row
