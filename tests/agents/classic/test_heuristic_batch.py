"""The batched heuristic: the same moves as HeuristicAgent, in one compiled call."""

from __future__ import annotations

import numpy as np
import pytest

from agents import RandomAgent
from agents.classic.heuristic import HeuristicAgent
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.opponents import BatchOpponent
from gomoku_env.planes import OBSERVER_IS_BLACK, OPPONENT_STONES, OWN_STONES
from gomoku_env.vector_env import GomokuVectorEnv


def random_board(config: GameConfig, rng: np.random.Generator) -> Board:
    """A position after a random number of random moves, not yet over."""
    while True:
        board = Board(config)
        for _ in range(rng.integers(0, config.cells // 3)):
            board.play(int(rng.choice(np.flatnonzero(board.legal_mask()))))
            if board.is_over:
                break
        if not board.is_over:
            return board


def planes_of(board: Board) -> np.ndarray:
    """Channels-last observation planes of ``board`` from the side to move."""
    size = board.config.board_size
    planes = np.zeros((size, size, 5), dtype=np.int8)
    cells = board.cells.reshape(size, size)
    planes[..., OWN_STONES] = cells == board.to_move
    planes[..., OPPONENT_STONES] = cells == 3 - board.to_move
    planes[..., OBSERVER_IS_BLACK] = board.to_move == 1
    return planes


@pytest.mark.parametrize(
    ("config", "attack", "defence"),
    [
        (GameConfig(board_size=9), 2, 1),
        (GameConfig(board_size=7, win_length=4, rule="standard"), 1, 3),
        (GameConfig(board_size=9, rule="renju"), 2, 1),
    ],
)
def test_batched_moves_are_moves_the_agent_would_choose(
    config: GameConfig, attack: int, defence: int
) -> None:
    rng = np.random.default_rng(config.board_size)
    boards = [random_board(config, rng) for _ in range(60)]
    agent = HeuristicAgent(config, seed=0, attack=attack, defence=defence)
    planes = np.stack([planes_of(board) for board in boards])
    masks = np.stack([board.legal_mask() for board in boards]).astype(np.int8)
    moves = agent.act_batch(planes, masks, np.arange(len(boards)))
    unique = 0
    for board, move in zip(boards, moves, strict=True):
        if not board.moves:
            assert move == agent.act(board)
            continue
        scores = agent.scores(board)
        best = np.flatnonzero(scores == scores.max())
        assert move in best
        if best.size == 1:
            unique += 1
            assert move == agent.act(board)
    assert unique >= 10


def test_ties_are_broken_uniformly() -> None:
    config = GameConfig(board_size=9)
    board = Board.from_moves([40], config)
    agent = HeuristicAgent(config, seed=1)
    best = np.flatnonzero(agent.scores(board) == agent.scores(board).max())
    planes = np.repeat(planes_of(board)[None], 400, axis=0)
    moves = agent.act_batch(planes, np.zeros((400, 81), np.int8), np.arange(400))
    assert best.size > 1 and set(moves) == set(best)


def test_bad_planes_are_a_clear_error() -> None:
    agent = HeuristicAgent(GameConfig(board_size=9))
    with pytest.raises(ValueError, match=r"\(2, 7, 7, 5\)"):
        agent.act_batch(np.zeros((2, 7, 7, 5)), np.zeros((2, 49)), np.arange(2))


def test_vector_env_plays_the_batched_heuristic_and_it_wins() -> None:
    env = GomokuVectorEnv(8, opponent="heuristic", board_size=9, play_as="random")
    assert len(env.opponents) == 1 and isinstance(env.opponents[0], HeuristicAgent)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    outcomes = []
    for _ in range(80):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        _, rewards, terminated, _, _ = env.step(actions)
        outcomes.extend(rewards[terminated])
    assert len(outcomes) >= 8 and outcomes.count(-1.0) > 0.8 * len(outcomes)


def test_the_heuristic_is_the_vector_envs_batch_opponent():
    config = GameConfig(board_size=9)
    agent = HeuristicAgent(config, seed=0)
    assert isinstance(agent, BatchOpponent)
    assert not isinstance(RandomAgent(), BatchOpponent)
    env = GomokuVectorEnv(2, board_size=9, opponent=agent)
    assert env.opponents == [agent]
    env.close()


def test_batched_noise_plays_random_legal_points_in_that_share() -> None:
    config = GameConfig(board_size=9)
    board = Board.from_moves([40, 0, 41, 1, 42, 2, 43], config)  # white must block
    planes = np.repeat(planes_of(board)[None], 1000, axis=0)
    masks = np.zeros((1000, 81), np.int8)
    best = HeuristicAgent(config, seed=2).act_batch(planes, masks, np.arange(1000))
    noisy = HeuristicAgent(config, seed=2, noise=0.25)
    moves = noisy.act_batch(planes, masks, np.arange(1000))
    assert set(best) == {44} or set(best) == {39, 44}
    legal = set(np.flatnonzero(board.legal_mask()))
    assert set(moves) <= legal and len(set(moves)) > 40
    assert 0.18 <= np.mean(~np.isin(moves, best)) <= 0.3
