"""What the overlay shows: samples of a running search, and each agent's final report
in words a person reads (never a raw pattern score)."""

import re
import threading

import numpy as np
import pytest

import gomoku_env
from agents.classic.alphabeta_search import WIN_SCORE
from agents.classic.reports import SearchReport
from agents.specs.parse import make_agent
from gomoku_apps.web.insight import (
    describe_report,
    final_insight,
    live_insight,
    move_shapes,
)
from gomoku_env import Board, GameConfig, parse_moves
from gomoku_env.notation import action_to_notation
from gomoku_env.planes import board_from_observation


def first_observation(size=9):
    env = gomoku_env.env(board_size=size)
    env.reset(seed=0)
    return env.last()[0]


def first_board(size=9):
    return board_from_observation(first_observation(size), GameConfig(size))


def test_a_tree_search_reports_visits_value_and_line():
    agent = make_agent("mcts:simulations=300", GameConfig(9), seed=0)
    action = agent.act(first_observation())
    insight = final_insight(agent, first_board())
    heat = np.array(insight["heat"])
    assert heat.shape == (81,) and heat.max() == 1.0 and heat.argmax() == action
    assert insight["pv"][0] == gomoku_env.notation.action_to_notation(action, 9)
    assert -1 <= insight["value"] <= 1 and "300 simulations" in insight["text"]


def test_a_search_is_sampled_while_it_runs():
    agent = make_agent("mcts:simulations=1000000,time=1.5", GameConfig(9), seed=0)
    samples, done = [], threading.Event()

    def sample():
        while not done.wait(0.05):
            insight = live_insight(agent, 9)
            if insight is not None:
                samples.append(insight)

    sampler = threading.Thread(target=sample)
    sampler.start()
    agent.act(first_observation())
    done.set()
    sampler.join()
    assert len(samples) >= 2
    assert all(len(sample["heat"]) == 81 and sample["pv"] for sample in samples)
    assert "visits so far" in samples[0]["text"]


def test_pattern_agents_report_their_line_and_random_nothing():
    heuristic = make_agent("heuristic", GameConfig(9), seed=0)
    move = heuristic.act(first_observation())
    insight = final_insight(heuristic, first_board())
    assert np.argmax(insight["heat"]) == move and insight["value"] is None
    assert insight["text"] == "opens at the centre"
    random = make_agent("random", GameConfig(9), seed=0)
    random.act(first_observation())
    assert final_insight(random, first_board()) is None
    assert live_insight(random, 9) is None


def report(reason, score, depth=4, nodes=900):
    return SearchReport(0, score, (0,), nodes, depth, reason, 0.1)


@pytest.mark.parametrize(
    ("report", "made", "blocked", "text", "value"),
    [
        (report("opening", 0, 0, 0), "", "", "opens at the centre", None),
        (
            report("vcf", WIN_SCORE - 5, 0, 40),
            "four",
            "",
            "wins in 3 by continuous fours (VCF) (40 nodes)",
            1.0,
        ),
        (
            report("search", WIN_SCORE - 1, 1, 10),
            "five",
            "",
            "wins in 1 (depth 1, 10 nodes)",
            1.0,
        ),
        (
            report("search", WIN_SCORE - 3),
            "open four",
            "",
            "wins in 2 (depth 4, 900 nodes)",
            1.0,
        ),
        (
            report("search", -(WIN_SCORE - 2)),
            "",
            "",
            "loses in 1 (depth 4, 900 nodes)",
            -1.0,
        ),
        (
            report("search", -(WIN_SCORE - 4)),
            "",
            "",
            "loses in 2 (depth 4, 900 nodes)",
            -1.0,
        ),
        (
            report("search", 0),
            "open three",
            "",
            "even; makes an open three; depth 4, 900 nodes",
            0.0,
        ),
        (report("search", 20_000), "", "", "ahead; depth 4, 900 nodes", 0.762),
        (
            report("defence", -40_000),
            "",
            "four",
            "behind; defends against a forced win; blocks a four; depth 4, 900 nodes",
            -0.964,
        ),
        (
            report("pattern", 2_000_420, 1),
            "open four",
            "three",
            "makes an open four, blocks a three",
            None,
        ),
        (report("pattern", 10_000_060, 1), "", "five", "blocks a five", None),
        (report("pattern", 40, 1), "", "", "builds on the best pattern point", None),
    ],
)
def test_a_report_reads_as_words_not_a_raw_score(report, made, blocked, text, value):
    assert describe_report(report, made, blocked) == (text, value)


@pytest.mark.parametrize(
    ("moves", "point", "shapes"),
    [
        ("e5 a1 f5 a2 g5 a9", "h5", ("open four", "")),
        ("e5 a1 f5 a2 g5 a9 h5", "d5", ("", "five")),  # white blocks black's four
        ("e5 a1 f5 a2", "g5", ("open three", "")),
        ("e5 d5 f5 a1 g5 a2", "h5", ("four", "")),  # closed at d5
        ("a1 e5 a9 e6 i9 e7", "e8", ("", "open four")),
        ("e5 e8 e6 a1 e7 a2 f4 a3 g4 a9", "e4", ("four-three", "")),
    ],
)
def test_the_shapes_a_move_makes_and_blocks(moves, point, shapes):
    board = Board.from_moves(parse_moves(moves, 9), GameConfig(9))
    assert move_shapes(board, parse_moves(point, 9)[0]) == shapes


def test_the_page_never_shows_a_raw_pattern_score():
    config = GameConfig(9)
    board = Board.from_moves(parse_moves("e5 a1 f5 a2 g5 a9", 9), config)
    heuristic = make_agent("heuristic", config, seed=0)
    move = heuristic.act(board)
    insight = final_insight(heuristic, board)
    assert heuristic.last_report.score > 1_000_000  # what the page used to print
    assert action_to_notation(move, 9) in ("d5", "h5")
    assert insight["text"] == "makes an open four"
    alphabeta = make_agent("alphabeta:depth=2", config, seed=0)
    alphabeta.act(board)
    insight = final_insight(alphabeta, board)
    assert insight["text"].startswith("wins in 2") and insight["value"] == 1.0
    assert not re.search(r"\d{5}", insight["text"]), insight["text"]
