"""The classic agents under renju: black's forbidden points, decided by the rules core,
are never played nor searched by black, and count as unblockable for white."""

from __future__ import annotations

import numpy as np
import pytest

import gomoku_env
from agents.budget import Budget
from agents.classic import alphabeta_search as search
from agents.classic.alphabeta import AlphaBetaAgent
from agents.classic.heuristic import HeuristicAgent
from agents.patterns import pattern_state as ps
from agents.patterns.threats import find_vcf
from gomoku_env import Board, GameConfig
from gomoku_env.kernels import BLACK, FREESTYLE, RENJU, WHITE
from gomoku_env.renju import forbidden_codes
from tests.agents.helpers import board_from_diagram

RENJU_CONFIG = GameConfig(rule="renju")
FREESTYLE_CONFIG = GameConfig()
QUICK = {"budget": None, "depth": 3, "branching": 8}

# Black to move; (7, 7) makes two open threes: a forbidden double three.
DOUBLE_THREE = [
    "O.........O",
    "...........",
    "...........",
    ".....X.....",
    ".....X.....",
    "...XX......",
    "...........",
    "...........",
    "...........",
    "...........",
    "O.........O",
]
# Black to move; (7, 6) makes six in a row: a forbidden overline, not a five.
OVERLINE = [
    "O.............O",
    "...............",
    ".......O.......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...XXX.XX......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "O.............O",
]
# (7, 7) makes two fours for black: its only VCF in freestyle, a double four in renju.
DOUBLE_FOUR = [
    "O.........O",
    ".....O.....",
    ".....X.....",
    ".....X.....",
    ".....X.....",
    ".OXXX......",
    "...........",
    "...........",
    "...........",
    "...........",
    "O.........O",
]
# White to move; white's four at (8, 8) leaves black one block, (7, 7), a double three.
WHITE_FOUR_ON_BAN = [
    "...........",
    "..........O",
    "...........",
    ".....X.....",
    ".....X.....",
    "...XX......",
    "...........",
    ".......O...",
    "........O..",
    ".........O.",
    "..........X",
]
POINT = 7 * 15 + 7


def diagram_board(rows: list[str], config: GameConfig) -> Board:
    top = (15 - len(rows)) // 2 if len(rows) < 15 else 0
    return board_from_diagram(rows, config, top=top, left=top)


@pytest.mark.parametrize(
    ("rows", "point", "reason"),
    [
        (DOUBLE_THREE, POINT, "double_three"),
        (OVERLINE, 7 * 15 + 6, "overline"),
        (DOUBLE_FOUR, POINT, "double_four"),
    ],
)
def test_agents_avoid_the_forbidden_obvious_move(
    rows: list[str], point: int, reason: str
) -> None:
    freestyle = diagram_board(rows, FREESTYLE_CONFIG)
    assert HeuristicAgent(FREESTYLE_CONFIG, seed=0).act(freestyle) == point
    assert AlphaBetaAgent(FREESTYLE_CONFIG, seed=0, **QUICK).act(freestyle) == point
    board = diagram_board(rows, RENJU_CONFIG)
    assert board.forbidden_reason(point) == reason
    heuristic = HeuristicAgent(RENJU_CONFIG, seed=0)
    assert heuristic.scores(board)[point] == -1
    assert heuristic.act(board) != point
    for seed in range(3):
        move = AlphaBetaAgent(RENJU_CONFIG, seed=seed, **QUICK).act(board)
        assert move != point and board.is_legal(move)


def test_black_vcf_through_a_forbidden_point_is_not_reported() -> None:
    cells = diagram_board(DOUBLE_FOUR, FREESTYLE_CONFIG).cells
    line = np.empty(22, dtype=np.int64)
    length, _ = find_vcf(ps.new_state(cells, 15, 5, FREESTYLE), BLACK, 21, 5000, line)
    assert length == 3 and line[0] == POINT
    renju = ps.new_state(cells, 15, 5, RENJU)
    assert renju.scores[0, POINT] == ps.BANNED
    assert find_vcf(renju, BLACK, 21, 5000, line)[0] == 0


def test_white_four_blocked_only_on_a_forbidden_point_wins() -> None:
    cells = diagram_board(WHITE_FOUR_ON_BAN, FREESTYLE_CONFIG).cells
    line = np.empty(22, dtype=np.int64)
    four = 8 * 15 + 8
    assert (
        find_vcf(ps.new_state(cells, 15, 5, FREESTYLE), WHITE, 21, 5000, line)[0] == 0
    )
    length, _ = find_vcf(ps.new_state(cells, 15, 5, RENJU), WHITE, 21, 5000, line)
    assert length > 0 and line[0] == four
    board = diagram_board(WHITE_FOUR_ON_BAN, RENJU_CONFIG)
    agent = AlphaBetaAgent(RENJU_CONFIG, seed=0, **QUICK)
    assert agent.act(board) == four and agent.last_report.reason == "vcf"
    board.play(four)
    assert board.forbidden_reason(POINT) == "double_three"
    black = AlphaBetaAgent(RENJU_CONFIG, seed=0, **QUICK)
    assert black.act(board) != POINT
    assert black.last_report.score < -search.WIN_THRESHOLD


def test_state_flags_exactly_the_rules_core_forbidden_points() -> None:
    rng = np.random.default_rng(3)
    banned = 0
    for _ in range(40):
        cells = np.zeros(81, dtype=np.int8)
        stones = rng.choice(81, size=30, replace=False)
        cells[stones[:20]] = BLACK
        cells[stones[20:]] = WHITE
        state = ps.new_state(cells, 9, 5, RENJU)
        expected = forbidden_codes(cells, 9) != 0
        assert np.array_equal(state.scores[0] == ps.BANNED, expected)
        banned += int(expected.sum())
    assert banned > 20


def test_renju_state_needs_five_in_a_row() -> None:
    with pytest.raises(ValueError, match="got 4"):
        ps.new_state(np.zeros(81, dtype=np.int8), 9, 5 - 1, RENJU)


def play_checked(players: dict[str, object], seed: int) -> tuple[str, int]:
    """Play a masked renju game, asserting every move is legal; return the end reason
    and how many black turns had forbidden points."""
    env = gomoku_env.env(rule="renju", forbidden="mask", random_opening=4)
    env.reset(seed=seed)
    with_bans = 0
    for name in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        with_bans += int(observation["observation"][..., 4].any())
        action = players[name].act(observation)
        assert observation["action_mask"][action] == 1, (name, action)
        env.step(action)
    return info["reason"], with_bans


def test_renju_games_through_the_env_have_no_illegal_move() -> None:
    with_bans = 0
    for seed in range(3):
        heuristic = HeuristicAgent(RENJU_CONFIG, seed=seed)
        alphabeta = AlphaBetaAgent(RENJU_CONFIG, seed, Budget(time=0.02), depth=4)
        pairs = [
            {"black_0": heuristic, "white_0": alphabeta},
            {"black_0": alphabeta, "white_0": HeuristicAgent(RENJU_CONFIG, seed=9)},
        ]
        for players in pairs:
            reason, bans = play_checked(players, seed)
            assert reason in ("five", "board_full", "no_legal_move"), reason
            with_bans += bans
    assert with_bans > 0
