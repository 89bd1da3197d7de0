"""A short real training run on 6×6 four in a row learns to beat random play clearly.

The check is on the network alone (greedy on its priors, no search), so it measures
what training taught. An untrained network's greedy policy already scores about 0.8
against a random player on this small board, so the trained one must also beat the
untrained one. About 8 CPU seconds.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

from agents import RandomAgent
from agents.alphazero.evaluator import NetworkEvaluator
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.trainer import TrainingRun
from agents.alphazero.training_config import (
    LearnerConfig,
    NetworkConfig,
    SelfPlayConfig,
    TrainingConfig,
)
from agents.budget import Budget
from agents.search import SELF_PLAY_PRESET
from agents.training.head_to_head import play_match
from gomoku_env.config import GameConfig

GAME = GameConfig(6, 4)
SMOKE = TrainingConfig(
    game=GAME,
    network=NetworkConfig(channels=16, blocks=2, value_hidden=16),
    self_play=SelfPlayConfig(
        parallel_games=32,
        full_search=Budget(simulations=32),
        fast_search=Budget(simulations=8),
        full_search_probability=0.5,
        temperature_moves=4,
        search=replace(SELF_PLAY_PRESET, dirichlet_alpha=0.5),
    ),
    learner=LearnerConfig(learning_rate=3e-3),
    replay_capacity=5_000,
    batch_size=64,
    min_replay=64,
    sample_reuse=4,
    evaluation_every=0,
    seed=0,
)
ITERATIONS = 15


class GreedyNetworkPlayer:
    """Plays the legal move with the highest prior: the network without search."""

    def __init__(self, network: PolicyValueNet) -> None:
        self._evaluator = NetworkEvaluator(network)

    def reset(self, seed: int | None = None) -> None:
        """Deterministic: nothing to reset."""

    def act(self, observation: dict[str, np.ndarray]) -> int:
        priors, _ = self._evaluator.evaluate(
            observation["observation"][None], observation["action_mask"][None]
        )
        return int(np.argmax(priors[0]))


def test_short_training_beats_random_and_the_untrained_network(tmp_path: Path) -> None:
    torch.manual_seed(SMOKE.seed)
    untrained = PolicyValueNet(SMOKE.network)
    run = TrainingRun(SMOKE, tmp_path, plot=False)
    for _ in range(ITERATIONS):
        run.iterate()
    trained = GreedyNetworkPlayer(run.network)
    versus_random = play_match(trained, RandomAgent(), GAME, games=40, seed=0)
    versus_untrained = play_match(
        trained, GreedyNetworkPlayer(untrained), GAME, games=40, seed=0
    )
    assert versus_random.score >= 0.85, versus_random
    assert versus_untrained.score >= 0.7, versus_untrained
