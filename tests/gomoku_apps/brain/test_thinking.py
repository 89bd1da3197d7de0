"""Turn time: budgets from the INFO limits, the deadline and emergency moves."""

import threading

import pytest

from agents.base import TimedAgent, legal_actions
from gomoku_apps.brain.brain import Brain
from gomoku_apps.brain.thinking import (
    MIN_BUDGET_S,
    AgentError,
    Thinker,
    TimeControl,
    emergency_move,
)
from gomoku_env.board import Board
from gomoku_env.config import GameConfig


@pytest.mark.parametrize(
    ("clock", "budget", "limit"),
    [
        (TimeControl(), None, None),
        (TimeControl(turn_ms=1000), 0.75, 1.0),
        (TimeControl(turn_ms=0), MIN_BUDGET_S, None),
        (TimeControl(turn_ms=5000, time_left_ms=20_000), 0.75, 5.0),
        (TimeControl(time_left_ms=2_147_483_647), None, None),
        (TimeControl(turn_ms=5000, time_left_ms=-50), MIN_BUDGET_S, 0.0),
    ],
)
def test_budget_and_hard_limit_follow_the_tightest_limit(clock, budget, limit):
    assert clock.budget() == (None if budget is None else pytest.approx(budget))
    assert clock.hard_limit() == limit


def test_emergency_move_is_legal_and_next_to_the_last_move():
    board = Board.from_moves([112, 113], GameConfig())
    move = emergency_move(board)
    assert board.is_legal(move)
    row, col = divmod(move, 15)
    assert max(abs(row - 7), abs(col - 8)) == 1
    assert emergency_move(Board(GameConfig(board_size=9))) == 40


class SlowTimedAgent:
    """Honours nothing: thinks ``delay`` seconds, or until ``released`` is set (after
    its first ``free_calls`` moves, e.g. a brain's warm-up move), and records the
    budget it was given; ``active`` counts the calls still thinking."""

    def __init__(self, delay: float, free_calls: int = 0) -> None:
        self.delay = delay
        self.free_calls = free_calls
        self.time_per_move = None
        self.budgets = []
        self.active = 0
        self.most_active = 0
        self._lock = threading.Lock()
        self.released = threading.Event()

    def reset(self, seed=None):
        pass

    def act(self, observation):
        with self._lock:
            self.active += 1
            self.most_active = max(self.most_active, self.active)
        self.budgets.append(self.time_per_move)
        if len(self.budgets) > self.free_calls:
            self.released.wait(self.delay)
        with self._lock:
            self.active -= 1
        return int(legal_actions(observation)[-1])


def test_a_timed_agent_gets_its_budget_and_answers_in_time():
    agent = SlowTimedAgent(delay=0.0)
    assert isinstance(agent, TimedAgent)
    move, notes = Thinker().choose(agent, Board(), TimeControl(turn_ms=2000))
    assert (move, notes) == (224, [])
    assert agent.budgets == [pytest.approx(1.55)]


def test_an_overrunning_agent_is_replaced_by_an_emergency_move():
    agent = SlowTimedAgent(delay=10.0)
    thinker = Thinker()
    board = Board.from_moves([112])
    move, notes = thinker.choose(agent, board, TimeControl(turn_ms=300))
    assert agent.active == 1  # the answer did not wait for the agent's 10 s
    assert move == emergency_move(board) and "overran" in notes[0]
    assert thinker.busy
    # While the abandoned call runs, the agent is not called again.
    move, notes = thinker.choose(agent, board, TimeControl(turn_ms=300))
    assert "still busy" in notes[0] and agent.most_active == 1
    agent.released.set()


def test_a_brain_answers_within_its_turn_time_and_starts_afresh_after_an_overrun():
    agents = []

    def factory(config):
        agents.append(SlowTimedAgent(delay=10.0, free_calls=1))
        return agents[-1]

    brain = Brain(factory, {})
    for line in ["START 15", "INFO timeout_turn 300"]:
        brain.handle(line)
    answers = brain.handle("TURN 7,7")
    assert agents[0].active == 1  # the answer did not wait for the agent's 10 s
    assert answers[0].startswith("DEBUG agent overran") and len(answers) == 2
    assert brain.handle("RESTART") == ["OK"]
    assert len(agents) == 2 and brain.agent is agents[1]
    agents[0].released.set()


def test_illegal_agent_moves_are_failures():
    class Cheater:
        def reset(self, seed=None):
            pass

        def act(self, observation):
            return 112

    with pytest.raises(AgentError, match="illegal move: 112"):
        Thinker().choose(Cheater(), Board.from_moves([112]), TimeControl())


@pytest.mark.parametrize("spec", ["mcts", "alphazero"])
def test_search_agents_stop_within_the_turn_time(spec):
    """With ten million simulations, only the turn time can end the search."""
    from agents.specs.parse import make_agent

    config = GameConfig(board_size=9)
    agent = make_agent(f"{spec}:simulations=10000000", config)
    assert isinstance(agent, TimedAgent)
    thinker = Thinker()
    thinker.choose(agent, Board.from_moves([40], config), TimeControl(turn_ms=500))
    assert thinker.wait(timeout=120), "the search ignored its time budget"
    assert agent.time_per_move == pytest.approx(0.35)
    assert agent.last_summary.simulations < 10_000_000


def test_the_brain_waits_for_every_abandoned_move_before_exiting():
    release = threading.Event()

    class Stuck:
        """The first one built hangs in its first real move; later ones do not."""

        built = 0

        def __init__(self, config):
            Stuck.built += 1
            self.calls = 0 if Stuck.built == 1 else -1_000

        def reset(self, seed=None):
            pass

        def act(self, observation):
            self.calls += 1
            if self.calls > 1:  # the first call is the warm-up
                release.wait()
            return int(legal_actions(observation)[0])

    brain = Brain(Stuck, {})
    for line in ["START 9", "INFO timeout_turn 100", "TURN 4,4", "RESTART", "BEGIN"]:
        brain.handle(line)
    assert not brain.wait(0.01)
    release.set()
    assert brain.wait(60)
