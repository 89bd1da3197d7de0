"""Agents think in a background thread so that the window keeps drawing and answering.

The thread is a daemon: closing the window in the middle of a long search does not
wait for the search to end (``gomoku play`` then ends the process at once, see
:mod:`gomoku_apps.cli.options`). An agent is never asked two questions at once:
while a stale search is still running, :meth:`AgentThinker.start` refuses a new one, and
the window tries again on the next frame.

The thread asks for the move with :func:`agents.game.choose_move`, the game loop's
per-move step, so an agent in the window is judged exactly as in the arena: an
exception or an illegal action comes back as a forfeit, never as a raised error.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from agents.base import Agent
from agents.game import MoveChoice, choose_move


@dataclass(frozen=True)
class Answer:
    """What came back from one search: the position's ticket and the agent's choice."""

    ticket: int
    choice: MoveChoice


class AgentThinker:
    """Runs one ``agent.act(observation)`` at a time in a daemon thread."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._answer: Answer | None = None
        self._lock = threading.Lock()

    @property
    def busy(self) -> bool:
        """Whether a search is still running."""
        return self._thread is not None and self._thread.is_alive()

    def start(
        self, agent: Agent, observation: dict[str, np.ndarray], ticket: int
    ) -> bool:
        """Start ``agent`` thinking about ``observation``; False while still busy.

        ``ticket`` comes back with the answer, so the caller can tell whether the
        position it was asked about is still on the board.
        """
        if self.busy:
            return False
        self._thread = threading.Thread(
            target=self._think, args=(agent, observation, ticket), daemon=True
        )
        self._thread.start()
        return True

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the search; True once none runs."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.busy

    def take(self) -> Answer | None:
        """The finished answer, once; None while thinking or when nothing was asked."""
        with self._lock:
            answer, self._answer = self._answer, None
        return answer

    def _think(
        self, agent: Agent, observation: dict[str, np.ndarray], ticket: int
    ) -> None:
        answer = Answer(ticket, choose_move(agent, observation))
        with self._lock:
            self._answer = answer
