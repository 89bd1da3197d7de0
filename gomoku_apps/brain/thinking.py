"""Choosing a brain's move within the time the manager gives.

Two mechanisms keep a brain inside its turn time. The agent is told its budget through
the :class:`~agents.base.TimedAgent` attribute ``time_per_move``, so search agents stop
in time on their own; and the agent thinks in a worker thread that the brain stops
waiting for just before the hard limit, answering then with an emergency move, so an
agent that ignores its budget costs a weaker move, never a lost game on time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.base import Agent, TimedAgent, warm_up
from agents.gomocup.protocol import UNLIMITED_TIME_LEFT_MS
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.planes import ObservationPlanes

SAFETY_FRACTION = 0.8
"""Share of the allowed time given to the agent; the rest covers I/O and scheduling."""
OVERHEAD_S = 0.05
"""Seconds kept back from every move for reading, writing and waking up."""
MIN_BUDGET_S = 0.01
"""The smallest budget given to an agent, used for ``timeout_turn 0`` (play at once)."""
MATCH_MOVES_RESERVE = 20
"""Without a turn limit, a move may use 1/20 of the match time left."""


@dataclass
class TimeControl:
    """The limits from ``INFO timeout_turn``, ``timeout_match`` and ``time_left`` (ms).

    None means the manager did not send that value (no limit from it).
    """

    turn_ms: int | None = None
    match_ms: int | None = None
    time_left_ms: int | None = None

    def hard_limit(self) -> float | None:
        """Seconds this move may take before the brain loses on time; None: no limit."""
        limits = []
        if self.turn_ms:
            limits.append(self.turn_ms / 1000)
        if self.time_left_ms is not None and self.time_left_ms < UNLIMITED_TIME_LEFT_MS:
            limits.append(max(self.time_left_ms, 0) / 1000)
        return min(limits) if limits else None

    def budget(self) -> float | None:
        """Seconds of thinking for the agent on this move; None for its own budget."""
        shares = []
        if self.turn_ms is not None:
            shares.append(self.turn_ms / 1000)
        if self.time_left_ms is not None and self.time_left_ms < UNLIMITED_TIME_LEFT_MS:
            shares.append(max(self.time_left_ms, 0) / 1000 / MATCH_MOVES_RESERVE)
        if not shares:
            return None
        return max(MIN_BUDGET_S, min(shares) * SAFETY_FRACTION - OVERHEAD_S)


def observation_for(board: Board) -> dict[str, np.ndarray]:
    """The PettingZoo observation of the side to move on ``board``."""
    planes = ObservationPlanes.from_board(board)
    return {
        "observation": planes.view(board.to_move),
        "action_mask": board.legal_mask(),
    }


def emergency_move(board: Board) -> int:
    """A legal move found at once: the empty point nearest the last move (or centre)."""
    legal = board.legal_actions()
    size = board.size
    anchor = board.last_move if board.last_move is not None else board.config.cells // 2
    rows, cols = np.divmod(legal, size)
    anchor_row, anchor_col = divmod(anchor, size)
    distance = np.maximum(np.abs(rows - anchor_row), np.abs(cols - anchor_col))
    return int(legal[np.argmin(distance)])


class AgentError(RuntimeError):
    """The agent raised an exception or chose an illegal move."""


class Thinker:
    """Runs ``agent.act`` in a worker thread and gives up waiting at a deadline.

    A worker that overran keeps running to its end (Python threads cannot be stopped);
    while it does, :attr:`busy` is True and the brain answers with emergency moves or
    builds a fresh agent, so the agent is never called from two threads at once.
    """

    def __init__(self) -> None:
        self._worker: threading.Thread | None = None

    @property
    def busy(self) -> bool:
        """Whether an earlier, abandoned ``act`` call is still running."""
        return self._worker is not None and self._worker.is_alive()

    def choose(
        self, agent: Agent, board: Board, clock: TimeControl
    ) -> tuple[int, list[str]]:
        """The agent's move on ``board`` and DEBUG lines about how it was chosen.

        Raises:
            AgentError: the agent raised or returned an illegal move.
        """
        if self.busy:
            return emergency_move(board), [
                "DEBUG agent still busy; played an emergency move"
            ]
        budget = clock.budget()
        if isinstance(agent, TimedAgent):
            agent.time_per_move = budget
        outcome = self._run(
            lambda: agent.act(observation_for(board)), clock.hard_limit()
        )
        if outcome is None:
            return emergency_move(board), [
                f"DEBUG agent overran the {clock.hard_limit():.3f} s limit; "
                "played an emergency move"
            ]
        result, error = outcome
        if error is not None:
            raise AgentError(f"agent failed: {type(error).__name__}: {error}")
        if (
            isinstance(result, bool)
            or not isinstance(result, (int, np.integer))
            or not board.is_legal(int(result))
        ):
            raise AgentError(f"agent chose an illegal move: {result!r}")
        return int(result), []

    def _run(
        self, function: Callable[[], Any], limit: float | None
    ) -> tuple[Any, BaseException | None] | None:
        """``(result, error)`` of ``function``; None if it overran ``limit`` seconds."""
        outcome: list[tuple[Any, BaseException | None]] = []

        def work() -> None:
            try:
                outcome.append((function(), None))
            # SystemExit and KeyboardInterrupt too: raised by the agent in this
            # thread, they are its failure (a user's Ctrl-C reaches the main thread).
            except BaseException as error:
                outcome.append((None, error))

        worker = threading.Thread(target=work, name="gomocup-agent", daemon=True)
        worker.start()
        wait = None if limit is None else max(limit - OVERHEAD_S, MIN_BUDGET_S)
        worker.join(wait)
        if worker.is_alive():
            self._worker = worker
            return None
        return outcome[0]

    def warm_up(self, agent: Agent, config: GameConfig) -> None:
        """Compile before the first timed move: the agent's own ``warm_up()`` when it
        has one (:func:`agents.base.warm_up`), else one quick move on an empty board
        (a timed agent gets the smallest budget; reset the agent afterwards).
        Failures are left for the real moves to report.
        """
        if callable(getattr(agent, "warm_up", None)):
            self._run(lambda: warm_up(agent), None)
            return
        if isinstance(agent, TimedAgent):
            agent.time_per_move = MIN_BUDGET_S
        self._run(lambda: agent.act(observation_for(Board(config))), None)

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for an abandoned ``act``; True once none runs.

        Call it before exiting: a search still running in native code (torch) when the
        interpreter shuts down aborts the process.
        """
        if self._worker is not None:
            self._worker.join(timeout)
        return not self.busy
