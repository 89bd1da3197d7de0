"""Batched self-play: consistent samples from games stepped together."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import torch

from agents.alphazero.evaluator import NetworkEvaluator
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.selfplay import SelfPlay, _Game
from agents.alphazero.training_config import SelfPlayConfig
from agents.budget import Budget
from agents.search import SELF_PLAY_PRESET, run_searches
from gomoku_env.config import GameConfig
from gomoku_env.kernels import BLACK
from gomoku_env.planes import (
    OBSERVER_IS_BLACK,
    OPPONENT_STONES,
    OWN_STONES,
    ObservationPlanes,
)
from tests.agents.alphazero.test_network import TINY
from tests.agents.helpers import board_from_diagram

SMALL = SelfPlayConfig(
    parallel_games=4,
    full_search=Budget(simulations=12),
    fast_search=Budget(simulations=4),
    full_search_probability=0.5,
    temperature_moves=3,
    search=replace(SELF_PLAY_PRESET, leaves_per_round=2),
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


def test_a_proven_root_ends_the_game_with_the_proven_result() -> None:
    # black to move has a double four ready on 9x9: the checks prove the root won,
    # so the game ends there, labelled a black win, before the five is on the board
    game = GameConfig(9)
    board = board_from_diagram(
        ["O.......O", ".........", "......O..", "......X..", "......X..",
         "......X..", "..OXXX...", ".........", "O..O....."],
        game,
    )  # fmt: skip
    config = SelfPlayConfig(parallel_games=1, full_search_probability=1.0)
    self_play = SelfPlay(game, config, seed=0)
    tree = self_play._trees[0]
    tree.reset(board)
    torch.manual_seed(0)
    run_searches([tree], NetworkEvaluator(PolicyValueNet(TINY)), 8)
    assert tree.is_solved
    played = _Game(board, ObservationPlanes(9), tree, full_search=True)
    assert self_play._play_move(played) and played.winner == BLACK
    assert not board.is_over
    result = self_play._result([played], moves=1, simulations=8)
    assert result.black_wins == 1 and result.samples.value.tolist() == [1.0]


def test_a_move_searches_its_budgets_simulations_past_the_kept_subtree() -> None:
    """The full search's budget for a sampled move, the fast one's for the others,
    counted from the simulations the tree holds already (as the agents count)."""
    config = SelfPlayConfig(
        parallel_games=1,
        full_search=Budget(simulations=9),
        fast_search=Budget(simulations=3),
        full_search_probability=0.5,
    )
    self_play = SelfPlay(GameConfig(7, 4), config, seed=0)
    game = self_play._new_game(self_play._trees[0])
    game.tree.simulations = 5  # as after advancing into a searched subtree
    searches = set()
    for _ in range(20):
        self_play._start_search(game)
        searches.add((game.full_search, game.target - 5))
    assert searches == {(True, 9), (False, 3)}


def test_a_gumbel_root_records_its_improved_policy_and_plays_its_move() -> None:
    torch.manual_seed(2)
    evaluator = NetworkEvaluator(PolicyValueNet(TINY))
    config = replace(SMALL, gumbel_actions=4, full_search_probability=1.0)
    self_play = SelfPlay(GameConfig(6, 4), config, seed=2)
    assert self_play._search_options.dirichlet_fraction == 0.0
    result = self_play.play(evaluator, games=2)
    samples = result.samples
    assert result.games == 2 and len(samples.value) == result.moves
    np.testing.assert_allclose(samples.policy.sum(axis=1), 1.0, rtol=1e-5)
    occupied = (
        samples.planes[..., OWN_STONES] + samples.planes[..., OPPONENT_STONES]
    ) > 0
    policy = samples.policy.reshape(occupied.shape)
    assert np.all(policy[occupied] == 0)
    # 12 simulations visit at most 12 moves; the improved policy gives every root
    # move some weight (the unvisited ones through their completed value).
    assert (samples.policy > 0).sum(axis=1).max() > 12
    again = SelfPlay(GameConfig(6, 4), config, seed=2).play(evaluator, games=2)
    np.testing.assert_array_equal(again.samples.policy, samples.policy)
