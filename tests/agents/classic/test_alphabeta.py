"""AlphaBetaAgent: tactics, agreement with an independent minimax, seeds, options."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gomoku_env
from agents.base import TimedAgent
from agents.budget import Budget
from agents.classic import alphabeta_search as search
from agents.classic.alphabeta import MAX_DEPTH, AlphaBetaAgent
from agents.classic.reports import pattern_state
from agents.specs.parse import make_agent
from gomoku_env import Board, GameConfig
from tests.agents.helpers import board_from_diagram, play_in_env

DEPTH_ONLY = {"budget": None, "depth": 3, "branching": 8}


def minimax(board: Board, ply: int) -> int:
    """Exact game value for the side to move, written on the Board API alone."""
    if board.winner:
        return -(search.WIN_SCORE - ply)
    if board.is_full:
        return 0
    best = -search.INFINITY
    for action in board.legal_actions():
        board.play(int(action))
        best = max(best, -minimax(board, ply + 1))
        board.undo()
    return best


def searched_value(board: Board, depth: int) -> int:
    state = pattern_state(board)
    zobrist = search.zobrist_keys(board.config.cells)
    context = search.SearchContext(
        zobrist=zobrist,
        tie_rank=np.arange(board.config.cells, dtype=np.int64),
        counters=np.zeros(search.COUNTER_SLOTS, dtype=np.int64),
        root_moves=np.empty(0, dtype=np.int64),
        branching=board.config.cells,
        leaf_vcf_plies=0,
        leaf_vcf_nodes=0,
    )
    context.counters[search.NODE_LIMIT] = 10**9
    key = search.position_hash(state, zobrist)
    return search.negamax(
        state, search.new_table(12), context, board.to_move, depth,
        -search.INFINITY, search.INFINITY, 0, key,
    )  # fmt: skip


def random_position(seed: int, win_length: int, empties: int) -> Board | None:
    rng = np.random.default_rng(seed)
    config = GameConfig(board_size=5, win_length=win_length)
    board = Board(config)
    for action in rng.permutation(25)[: 25 - empties]:
        board.play(int(action))
        if board.winner:
            return None
    return board


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    win_length=st.sampled_from([3, 4]),
    empties=st.integers(3, 6),
)
def test_full_depth_search_equals_plain_minimax(
    seed: int, win_length: int, empties: int
) -> None:
    board = random_position(seed, win_length, empties)
    if board is None:
        return
    assert searched_value(board, empties) == minimax(board, 0)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    win_length=st.sampled_from([3, 4]),
    empties=st.integers(4, 6),
    depth=st.integers(1, 4),
)
def test_depth_limited_search_finds_every_decision_within_its_horizon(
    seed: int, win_length: int, empties: int, depth: int
) -> None:
    board = random_position(seed, win_length, empties)
    if board is None:
        return
    exact = minimax(board, 0)
    plies_to_end = search.WIN_SCORE - abs(exact)
    value = searched_value(board, depth)
    if exact != 0 and plies_to_end <= depth:
        assert value == exact
    else:
        assert abs(value) < search.WIN_SCORE - depth


def test_wins_in_one_and_blocks_a_four() -> None:
    win = board_from_diagram(["XXXX.", ".....", "OOOO."], top=5, left=3)
    agent = AlphaBetaAgent(seed=0, **DEPTH_ONLY)
    assert agent.act(win) in (5 * 15 + 7, 5 * 15 + 2)
    assert agent.last_report.score > search.WIN_THRESHOLD
    block = board_from_diagram(["OXXXX.", "......", "..O.O."], top=5, left=3)
    assert agent.act(block) == 5 * 15 + 8


def test_blocks_an_open_three() -> None:
    board = board_from_diagram(["..XXX..", ".......", "..O.O.."], top=7, left=4)
    board.play(0)  # black's tempo move far away: white to move, facing the open three
    move = AlphaBetaAgent(seed=0, **DEPTH_ONLY).act(board)
    assert move in (7 * 15 + 5, 7 * 15 + 9, 7 * 15 + 4, 7 * 15 + 10)


def test_plays_a_forced_win_by_fours_and_reports_it() -> None:
    board = board_from_diagram(
        [".....O.", ".OXXX..", ".....X.", ".....X.", ".OXXX..", "O.O.O.O"],
        top=3,
        left=2,
    )
    agent = AlphaBetaAgent(seed=0, **DEPTH_ONLY)
    move = agent.act(board)
    report = agent.last_report
    assert report.reason == "vcf"
    assert report.principal_variation[0] == move
    assert len(report.principal_variation) % 2 == 1
    assert report.nodes > 0


def test_same_seed_same_moves_in_a_pettingzoo_loop() -> None:
    def play(seed: int) -> list[int]:
        config = GameConfig(board_size=9)
        env = gomoku_env.env(board_size=9, random_opening=3)
        env.reset(seed=5)
        agents = {
            "black_0": make_agent(
                "alphabeta:time=None,depth=2,branching=6", config, seed
            ),
            "white_0": make_agent("heuristic", config, seed),
        }
        return play_in_env(env, agents)

    assert play(4) == play(4)


def warmed_up_board() -> Board:
    """A small position, searched once so that compiling is not timed."""
    board = board_from_diagram(["X.O", ".XO", "..."], top=6, left=6)
    AlphaBetaAgent(seed=1, budget=None, depth=2).act(board)
    return board


def test_time_budget_reports_depth_and_principal_variation() -> None:
    board = warmed_up_board()
    agent = AlphaBetaAgent(seed=1, budget=Budget(time=0.3))
    move = agent.act(board)
    report = agent.last_report
    assert report.depth >= 2
    assert report.principal_variation[0] == move
    assert report.depth < MAX_DEPTH  # the clock, not the depth limit, ended the search
    assert board.cells[move] == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"budget": None, "depth": None}, "both are None"),
        ({"budget": Budget(simulations=10)}, "cannot count simulations"),
        ({"branching": 0}, "branching must be"),
        ({"depth": 2.5}, "depth must be"),
    ],
)
def test_bad_options_are_rejected(options: dict, message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        AlphaBetaAgent(**options)


def test_spec_with_unknown_option_is_a_clear_error() -> None:
    with pytest.raises(
        ValueError, match="unknown option 'speed' for agent 'alphabeta'"
    ):
        make_agent("alphabeta:speed=3")


@pytest.mark.parametrize(
    ("spec", "budget", "depth"),
    [
        ("alphabeta", Budget(nodes=100_000), None),
        ("alphabeta:time=none,depth=2", None, 2),
        ("alphabeta:nodes=20000", Budget(nodes=20_000), None),
        ("alphabeta:nodes=500,time=2", Budget(nodes=500, time=2.0), None),
    ],
)
def test_the_flat_spec_options_make_one_budget(spec, budget, depth) -> None:
    agent = make_agent(spec)
    assert (agent.budget, agent.options.depth) == (budget, depth)


@pytest.mark.parametrize("spec", ["alphabeta:time=-1", "alphabeta:nodes=0"])
def test_a_bad_budget_in_a_spec_is_named(spec: str) -> None:
    with pytest.raises(ValueError, match=spec.split(":")[1].split("=")[0]):
        make_agent(spec)


def test_a_nodes_budget_gives_the_same_move_and_nodes_every_time() -> None:
    board = board_from_diagram(["X.O", ".XO", "..."], top=6, left=6)

    def searched(nodes: int, time: float | None = None) -> tuple[int, int, int]:
        agent = AlphaBetaAgent(seed=3, budget=Budget(nodes=nodes, time=time))
        move = agent.act(board)
        return move, agent.last_report.nodes, agent.last_report.depth

    small, again, large = searched(3_000), searched(3_000), searched(30_000)
    assert small == again == searched(3_000, time=3600.0)  # the nodes end first
    assert large[1] > small[1] and large[2] > small[2]
    # Counted work stops it: a little past the budget (the node that noticed it).
    assert small[1] <= 3_000 + 100


def test_time_per_move_overrides_the_depth_only_budget() -> None:
    board = warmed_up_board()
    agent = AlphaBetaAgent(seed=1, budget=None, depth=40)
    assert isinstance(agent, TimedAgent)
    agent.time_per_move = 0.2
    agent.act(board)
    assert agent.last_report.depth < 40  # the clock, not the depth limit, ended it
