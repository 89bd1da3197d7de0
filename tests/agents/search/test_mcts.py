"""MCTSAgent: tactics with each evaluator, reproducibility, budgets, tree reuse and
the spec."""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import agents.search.mcts
import gomoku_env
from agents.budget import Budget
from agents.search import MCTS_PRESET
from agents.search.mcts import MCTSAgent
from agents.search.pattern_evaluator import PatternEvaluator
from agents.specs.parse import make_agent
from gomoku_env import Board, GameConfig
from tests.agents.search.helpers import subtree_size

GAME = GameConfig(board_size=9)
EVALUATORS = {
    "tactical rollouts": (None, "tactical"),
    "random rollouts": (None, "random"),
    "patterns": (PatternEvaluator(GAME), "tactical"),
}


def mcts(
    evaluator: Any = None,
    simulations: int | None = None,
    time: float | None = None,
    seed: int | None = 0,
    **search: Any,
) -> MCTSAgent:
    """An MCTS agent on GAME with this budget and the preset changed by ``search``."""
    budget = Budget(simulations=simulations, time=time)
    return MCTSAgent(GAME, evaluator, budget, replace(MCTS_PRESET, **search), seed=seed)


def position(black: list[int], white: list[int], last: int) -> Board:
    """A 9×9 board with these stones, ``last`` played last."""
    return gomoku_env.planes.board_from_stones(black, white, last, GAME)


@pytest.mark.parametrize("tactical", [True, False])
def test_takes_a_win_in_one(tactical: bool) -> None:
    board = position([37, 38, 39, 40], [36, 0, 8, 72], last=72)
    agent = mcts(simulations=300, tactical=tactical, seed=0)
    assert agent.act_on_board(board) == 41
    assert agent.last_summary.root_value == 1.0


@pytest.mark.parametrize("tactical", [True, False])
def test_blocks_a_four(tactical: bool) -> None:
    board = position([37, 38, 39, 40], [36, 0, 80], last=40)
    agent = mcts(simulations=1000, tactical=tactical, seed=1)
    assert agent.act_on_board(board) == 41


@pytest.mark.parametrize("name", EVALUATORS)
def test_each_evaluator_finds_the_win_and_the_block(name: str) -> None:
    # tactical=False: the search must find both moves, no expansion rule forces them.
    win = position([37, 38, 39, 40], [36, 0, 8, 72], last=72)
    block = position([37, 38, 39, 40], [36, 0, 80], last=40)
    evaluator, rollout = EVALUATORS[name]
    for seed in range(2):
        for board in (win, block):
            agent = mcts(evaluator, 2000, tactical=False, rollout=rollout, seed=seed)
            assert agent.act_on_board(board) == 41, (name, seed, board.moves)


def test_the_evaluator_picks_the_formula_unless_one_is_set() -> None:
    assert MCTSAgent(GAME).evaluator is None
    assert MCTSAgent(GAME).tree.options.formula == "uct"
    patterns = MCTSAgent(GAME, PatternEvaluator(GAME))
    assert patterns.tree.options.formula == "puct"
    assert mcts(PatternEvaluator(GAME), 10, formula="uct").tree.options.formula == "uct"
    assert mcts(None, 10, formula="puct").tree.settings.puct


@pytest.mark.parametrize("evaluator", ["patterns", PatternEvaluator])
def test_an_evaluator_that_is_no_evaluator_is_refused(evaluator: object) -> None:
    with pytest.raises(TypeError, match="evaluator"):
        MCTSAgent(GAME, evaluator)


def test_a_rollout_kind_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="'greedy'"):
        make_agent("mcts:rollout=greedy", GAME)


def test_a_budget_it_cannot_count_is_refused() -> None:
    with pytest.raises(ValueError, match="MCTSAgent cannot count nodes"):
        MCTSAgent(GAME, budget=Budget(nodes=100))
    with pytest.raises(ValueError, match="needs simulations or time"):
        make_agent("mcts:time=none", GAME)


def test_blocks_an_open_three() -> None:
    board = position([39, 40, 41], [0, 80], last=41)
    agent = mcts(simulations=2000, seed=2)
    assert agent.act_on_board(board) in {37, 38, 42, 43}


def test_same_seed_same_search() -> None:
    board = position([40, 30], [41], last=30)
    first = mcts(simulations=500, seed=7)
    second = mcts(simulations=500, seed=7)
    other = mcts(simulations=500, seed=8)
    assert first.act_on_board(board) == second.act_on_board(board)
    np.testing.assert_array_equal(first.last_summary.visits, second.last_summary.visits)
    other.act_on_board(board)
    assert not np.array_equal(first.last_summary.visits, other.last_summary.visits)


def test_time_budget_alone_searches_until_it_is_spent() -> None:
    agent = mcts(time=0.05, seed=0)
    agent.act_on_board(Board(GAME))  # compiles and warms up
    agent = MCTSAgent(GameConfig(board_size=15), budget=Budget(time=0.2), seed=0)
    agent.act_on_board(Board(GameConfig(board_size=15)))
    assert agent.last_summary.seconds >= 0.2
    assert agent.last_summary.simulations > 1


def test_simulation_budget_ends_first_when_smaller() -> None:
    agent = mcts(simulations=300, time=3600.0, seed=0)
    agent.act_on_board(Board(GAME))
    assert agent.last_summary.simulations == 300


def test_reuses_its_tree_across_an_opponent_move() -> None:
    env = gomoku_env.env(board_size=9, opening=[40, 41, 31, 49])
    env.reset(seed=0)
    agent = mcts(simulations=2000, seed=3)
    observation, *_ = env.last()
    first = agent.act(observation)
    reply = agent.last_summary.principal_variation[1]
    expected = subtree_size(agent.tree.arrays, agent.tree.child_of(reply))
    env.step(first)
    env.step(reply)
    observation, *_ = env.last()
    agent.act(observation)
    assert agent.last_summary.reused_nodes == expected > 1


def test_summary_exposes_visits_value_and_line() -> None:
    agent = make_agent("mcts:simulations=400,c=1.2,distance=1", GAME, seed=0)
    action = agent.act_on_board(Board.from_moves([40], GAME))
    summary = agent.last_summary
    assert summary.visits.shape == (81,) and summary.visits[40] == 0
    assert summary.visits.sum() == 399  # the root's first visit expands it
    assert summary.principal_variation[0] == action
    assert -1.0 <= summary.root_value <= 1.0
    assert summary.visit_distribution().sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "options, message",
    [
        ("simulations=0", "simulations"),
        ("time=-1", "time"),
        ("batch=0", "leaves_per_round"),
        ("leaves_per_round=0", "leaves_per_round"),
        ("temperature=-0.5", "temperature"),
        ("c=-1", "exploration"),
        ("c=nan", "exploration"),
        ("exploration=inf", "exploration"),
        ("time=nan", "time"),
        ("time=inf", "time"),
        ("temperature=nan", "temperature"),
        ("c=1.0,exploration=2.0", "given twice"),
        ("distance=-2", "distance"),
        ("nodes=10", "unknown option 'nodes'"),
        ("colour=1", "colour"),
    ],
)
def test_bad_options_are_named(options: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(f"mcts:{options}", GAME)


def test_spec_aliases_name_the_agents_arguments() -> None:
    agent = make_agent("mcts:simulations=50,c=0.7,batch=4", GAME, seed=0)
    same = make_agent(
        "mcts:simulations=50,exploration=0.7,leaves_per_round=4", GAME, seed=0
    )
    assert agent.tree.options == same.tree.options
    assert (same.tree.options.leaves_per_round, same.tree.options.exploration) == (
        4,
        0.7,
    )
    board = position([40], [41], last=41)
    assert agent.act_on_board(board) == same.act_on_board(board)
    np.testing.assert_array_equal(agent.last_summary.visits, same.last_summary.visits)


@pytest.mark.parametrize(
    "options",
    [
        {"time": float("nan")},
        {"time": float("inf")},
        {"simulations": 10, "exploration": float("nan")},
        {"simulations": 10, "temperature": float("inf")},
    ],
)
def test_the_agent_refuses_nan_and_infinity(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=list(options)[-1]):
        make_agent("mcts:" + ",".join(f"{k}={v}" for k, v in options.items()), GAME)


@pytest.mark.parametrize(
    ("spec", "budget"),
    [
        ("mcts:time=5", (None, 5.0)),
        ("mcts", (1000, None)),
        ("mcts:time=5,simulations=200", (200, 5.0)),
        ("mcts:simulations=50", (50, None)),
    ],
)
@pytest.mark.filterwarnings("ignore::agents.search.mcts.StarvedSearchWarning")
def test_a_spec_naming_only_time_searches_for_that_time(monkeypatch, spec, budget):
    budgets = []
    search = agents.search.mcts.run_searches

    def record_budget(trees, evaluator, simulations, time):
        budgets.append((simulations, time))  # then search briefly, whatever was asked
        return search(trees, evaluator, 10, None)

    monkeypatch.setattr(agents.search.mcts, "run_searches", record_budget)
    agent = make_agent(spec, GameConfig(board_size=7))
    assert (agent.budget.simulations, agent.budget.time) == budget
    board = Board(GameConfig(board_size=7))
    agent.act_on_board(board)
    agent.reset()
    agent.time_per_move = 0.25  # a Gomocup manager's turn time replaces the clock
    agent.act_on_board(board)
    assert budgets == [budget, (budget[0], 0.25)]


def test_a_starved_clock_search_warns_once_naming_the_fix() -> None:
    """A clock that stops the search after a handful of simulations says so once, so
    that nobody takes the starved play for the agent's strength."""
    from agents.search.mcts import STARVED_SIMULATIONS, StarvedSearchWarning

    board = Board(GameConfig(board_size=9))
    agent = MCTSAgent(board.config, budget=Budget(time=1e-9), seed=0)
    with pytest.warns(StarvedSearchWarning, match="simulations=N") as caught:
        board.play(agent.act_on_board(board))
        board.play(agent.act_on_board(board))
    assert agent.last_summary.simulations < STARVED_SIMULATIONS
    assert len(caught) == 1
    counted = MCTSAgent(board.config, budget=Budget(simulations=4), seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a work budget never warns, however small
        counted.act_on_board(board)


@pytest.mark.parametrize("spec", ["mcts:simulations=40", "alphazero:simulations=20"])
def test_warming_up_compiles_without_changing_a_move(spec: str) -> None:
    """The arena warms an agent up before its first game (so compiling is not counted
    as thinking); the agent then plays exactly the moves it would have played."""
    config = GameConfig(board_size=9)
    moves = []
    for warm in (False, True):
        agent = make_agent(spec, config, seed=3)
        if warm:
            agent.warm_up()
        board = Board(config)
        for _ in range(4):
            board.play(agent.act_on_board(board))
        moves.append(board.moves)
    assert moves[0] == moves[1]


def test_the_arena_warms_each_agent_up_once(monkeypatch) -> None:
    from gomoku_apps.arena import runner

    warmed = []
    monkeypatch.setattr(MCTSAgent, "warm_up", lambda self: warmed.append(self))
    runner.close_agents()
    config = GameConfig(board_size=7)
    first = runner._agent("a", "mcts:simulations=5", config)
    assert runner._agent("a", "mcts:simulations=5", config) is first
    assert warmed == [first]
    runner.close_agents()


def test_one_agent_used_from_two_threads_is_a_clear_error() -> None:
    """Two threads in one agent's search corrupted its tree (and the heap); the
    second thread now gets a RuntimeError saying to give each thread its own agent."""
    import copy
    import threading

    board = Board(GameConfig(board_size=9))
    agent = MCTSAgent(board.config, budget=Budget(simulations=50), seed=0)
    inside, release = threading.Event(), threading.Event()
    search = agent._search_and_choose

    def slow_search(board_seen):
        inside.set()
        release.wait(10)
        return search(board_seen)

    agent._search_and_choose = slow_search
    worker = threading.Thread(target=agent.act_on_board, args=(board,))
    worker.start()
    assert inside.wait(10)
    with pytest.raises(RuntimeError, match="give each thread its own agent"):
        agent.act_on_board(board)
    with pytest.raises(RuntimeError, match="give each thread its own agent"):
        agent.reset()
    release.set()
    worker.join(10)
    del agent._search_and_choose
    twin = copy.deepcopy(agent)  # copies (and pickles) without the lock
    assert twin.act_on_board(board) == agent.act_on_board(board)
