"""Batched self-play: consistent samples from games stepped together."""

from __future__ import annotations

import numpy as np
import torch

from agents.alphazero.evaluator import NetworkEvaluator
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.selfplay import SelfPlay
from agents.alphazero.training_config import SelfPlayConfig
from gomoku_env.config import GameConfig
from gomoku_env.planes import OBSERVER_IS_BLACK, OPPONENT_STONES, OWN_STONES
from tests.agents.alphazero.test_network import TINY

SMALL = SelfPlayConfig(
    parallel_games=4,
    simulations=12,
    fast_simulations=4,
    full_search_probability=0.5,
    leaves_per_round=2,
    temperature_moves=3,
)


def test_self_play_samples_are_consistent() -> None:
    torch.manual_seed(0)
    evaluator = NetworkEvaluator(PolicyValueNet(TINY))
    result = SelfPlay(GameConfig(6, 4), SMALL, seed=0).play(evaluator, games=6)
    samples = result.samples
    assert result.games == 6
    assert 0 < len(samples.value) <= result.moves
    occupied = (
        samples.planes[..., OWN_STONES] + samples.planes[..., OPPONENT_STONES]
    ) > 0
    policy = samples.policy.reshape(occupied.shape)
    assert np.all(policy[occupied] == 0), "visits on an occupied point"
    np.testing.assert_allclose(samples.policy.sum(axis=1), 1.0, rtol=1e-5)
    assert set(np.unique(samples.value)) <= {-1.0, 0.0, 1.0}
    # The network calls were batched across the games in progress.
    assert evaluator.evaluations >= 3 * evaluator.network_calls


def test_outcomes_are_from_the_side_to_move() -> None:
    torch.manual_seed(1)
    evaluator = NetworkEvaluator(PolicyValueNet(TINY))
    self_play = SelfPlay(GameConfig(6, 4), SMALL, seed=1)
    result = self_play.play(evaluator, games=1)
    black_to_move = result.samples.planes[:, 0, 0, OBSERVER_IS_BLACK] == 1
    values = result.samples.value
    if result.draws:
        assert np.all(values == 0)
    else:
        black_result = 1.0 if result.black_wins else -1.0
        assert np.all(values[black_to_move] == black_result)
        assert np.all(values[~black_to_move] == -black_result)


def test_same_seed_same_games() -> None:
    def run() -> np.ndarray:
        torch.manual_seed(2)
        evaluator = NetworkEvaluator(PolicyValueNet(TINY))
        return SelfPlay(GameConfig(6, 4), SMALL, seed=5).play(evaluator).samples.policy

    np.testing.assert_array_equal(run(), run())
