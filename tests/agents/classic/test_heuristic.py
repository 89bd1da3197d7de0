"""HeuristicAgent: wins, blocks, prefers attack, seeded ties, both input kinds."""

from __future__ import annotations

import pytest

import gomoku_env
from agents.classic.heuristic import HeuristicAgent
from agents.specs.parse import make_agent
from gomoku_env import GameConfig
from gomoku_env.kernels import centre_point
from gomoku_env.notation import notation_to_action
from tests.agents.helpers import board_from_diagram, play_in_env


def point(name: str) -> int:
    return notation_to_action(name, 15)


def test_takes_the_win_over_blocking() -> None:
    board = board_from_diagram(["XXXX.", ".....", "OOOO."], top=5, left=3)
    assert HeuristicAgent(seed=0).act(board) == 5 * 15 + 7


def test_blocks_the_opponents_five() -> None:
    board = board_from_diagram(["OXXXX.", "......", "..O.O."], top=5, left=3)
    assert board.to_move == gomoku_env.WHITE
    assert HeuristicAgent(seed=0).act(board) == 5 * 15 + 8


def test_prefers_making_an_open_four_to_blocking_a_three() -> None:
    board = board_from_diagram(
        [".........", "..XXX....", ".........", "....OOO.."], top=4, left=2
    )
    move = HeuristicAgent(seed=0).act(board)
    assert move in (5 * 15 + 3, 5 * 15 + 7)


def test_same_seed_same_moves_and_observations_work() -> None:
    def play(seed: int) -> list[int]:
        env = gomoku_env.env(board_size=9, random_opening=2)
        env.reset(seed=3)
        agents = {
            name: HeuristicAgent(GameConfig(board_size=9), seed=seed)
            for name in env.agents
        }
        return play_in_env(env, agents)

    assert play(1) == play(1)
    assert play(1) != play(2)


def test_empty_board_and_report() -> None:
    agent = make_agent("heuristic", GameConfig(board_size=9), seed=0)
    board = gomoku_env.Board(GameConfig(board_size=9))
    assert agent.act(board) == centre_point(9) == 40
    assert agent.last_report.reason == "opening"
    board.play(40)
    move = agent.act(board)
    assert agent.last_report.principal_variation == (move,)
    assert agent.last_report.score > 0


def test_bad_input_is_rejected() -> None:
    agent = HeuristicAgent(GameConfig(board_size=9))
    with pytest.raises(ValueError, match="differs"):
        agent.act(gomoku_env.Board(GameConfig(board_size=11)))
    with pytest.raises(TypeError, match="observation dict or a Board"):
        agent.act([1, 2, 3])


def test_defence_weight_turns_attack_into_blocking() -> None:
    # black has an open three to extend and white's open three to block: the default
    # weights extend, a heavy defence weight blocks
    board = board_from_diagram(
        [".........", "..XXX....", ".........", "...OOO..."], top=4, left=2
    )
    blocks = (7 * 15 + 4, 7 * 15 + 8)
    assert HeuristicAgent(seed=0).act(board) not in blocks
    assert HeuristicAgent(seed=0, defence=5).act(board) in blocks
    with pytest.raises(ValueError, match="defence must be"):
        HeuristicAgent(defence=-1)


def test_noise_plays_that_share_of_moves_at_random_legal_points() -> None:
    # a position with one best point (the win): every pattern move takes it, so the
    # moves elsewhere are the random ones, about `noise` of them
    board = board_from_diagram(["XXXX.", ".....", "OOO.."], top=5, left=3)
    win = 5 * 15 + 7
    legal = set(board.legal_actions())
    for noise, low, high in ((0.0, 0, 0), (0.3, 0.22, 0.38), (1.0, 0.97, 1.0)):
        agent = make_agent(f"heuristic:noise={noise}", GameConfig(), seed=3)
        moves = [agent.act(board) for _ in range(400)]
        assert set(moves) <= legal
        elsewhere = sum(move != win for move in moves) / len(moves)
        assert low <= elsewhere <= high, (noise, elsewhere)
        if noise == 1.0:
            assert agent.last_report.reason == "noise" and len(set(moves)) > 100


def test_noise_zero_draws_as_the_plain_heuristic() -> None:
    # the scale's heuristic anchor must keep its games: noise=0 draws nothing more
    board = board_from_diagram(
        [".........", "..XXX....", ".........", "....OOO.."], top=4, left=2
    )
    plain, silent = HeuristicAgent(seed=5), HeuristicAgent(seed=5, noise=0.0)
    assert [plain.act(board) for _ in range(30)] == [
        silent.act(board) for _ in range(30)
    ]


@pytest.mark.parametrize("noise", [-0.1, 1.5, float("nan"), float("inf")])
def test_noise_out_of_range_is_refused_by_name(noise: float) -> None:
    with pytest.raises(ValueError, match=f"noise must be .*{noise}"):
        HeuristicAgent(noise=noise)
