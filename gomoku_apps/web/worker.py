"""The agent's side of an agent process: build the agent, answer moves, report its search.

One process per agent seat, so a search never runs on the server's event loop, a
crash (even of native code) takes down only its game, and a search that overruns its
time can be ended by killing the process. The server talks to it over a pipe with
tuples (see :mod:`gomoku_apps.web.agent_process` for the other side):

- to the worker: ``("act", ticket, observation)``, ``("reset", seed)``, ``("stop",)``;
- from the worker: ``("ready",)`` or ``("error", message)`` once after building the
  agent, ``("progress", ticket, insight)`` while it thinks, ``("move", ticket,
  action, forfeit, detail, seconds, insight)`` for each move, and
  ``("reset_failed", detail)``.

Moves are asked through :func:`agents.game.choose_move`, the game loop's per-move step,
so an agent is judged exactly as in the arena: an exception, an illegal action or a
move slower than the limit comes back as a forfeit. The worker ignores Ctrl-C: the
terminal sends it to the whole process group, and the server stops its workers itself.
"""

from __future__ import annotations

import signal
import threading
from multiprocessing.connection import Connection

import numpy as np

from agents.base import warm_up
from agents.game import AGENT_FAILURES, choose_move
from agents.specs.parse import make_agent
from gomoku_apps.web.insight import final_insight, live_insight
from gomoku_env.config import GameConfig
from gomoku_env.planes import board_from_observation

PROGRESS_INTERVAL_S = 0.25
"""Seconds between two samples of a search in progress."""


class _Sender:
    """Sends on the pipe from two threads (the move and the search samples) in turn."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._lock = threading.Lock()

    def send(self, message: tuple) -> None:
        with self._lock:
            self._connection.send(message)


def _sample_search(
    agent: object, board_size: int, ticket: int, sender: _Sender, done: threading.Event
) -> None:
    """Send a sample of the running search every :data:`PROGRESS_INTERVAL_S`."""
    while not done.wait(PROGRESS_INTERVAL_S):
        insight = live_insight(agent, board_size)
        if insight is not None:
            sender.send(("progress", ticket, insight))


def _answer_move(
    agent: object,
    observation: dict[str, np.ndarray],
    ticket: int,
    config: GameConfig,
    move_time: float | None,
    sender: _Sender,
) -> None:
    done = threading.Event()
    sampler = threading.Thread(
        target=_sample_search,
        args=(agent, config.board_size, ticket, sender, done),
        daemon=True,
    )
    sampler.start()
    try:
        choice = choose_move(agent, observation, move_time)
    finally:
        done.set()
        sampler.join()
    insight = None
    if not choice.forfeit:
        insight = final_insight(agent, board_from_observation(observation, config))
    sender.send(
        (
            "move",
            ticket,
            choice.action,
            choice.forfeit,
            choice.detail,
            choice.seconds,
            insight,
        )
    )


def run_worker(
    connection: Connection,
    spec: str,
    config: GameConfig,
    seed: int | None,
    move_time: float | None,
) -> None:
    """The agent process's main function: serve ``spec``'s agent until told to stop
    or until the server's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sender = _Sender(connection)
    try:
        agent = make_agent(spec, config, seed)
        warm_up(agent)  # compile before the game, not in its first move's time
    except AGENT_FAILURES as error:
        sender.send(("error", str(error)))
        return
    sender.send(("ready",))
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message[0] == "stop":
            return
        try:
            _serve(message, agent, config, move_time, sender)
        except OSError:
            return  # the server is gone


def _serve(
    message: tuple,
    agent: object,
    config: GameConfig,
    move_time: float | None,
    sender: _Sender,
) -> None:
    """Carry out one message from the server (a reset or a move)."""
    if message[0] == "reset":
        try:
            agent.reset(seed=message[1])
        except AGENT_FAILURES as error:
            sender.send(("reset_failed", f"reset: {type(error).__name__}: {error}"))
    elif message[0] == "act":
        _answer_move(agent, message[2], message[1], config, move_time, sender)
