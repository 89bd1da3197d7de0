"""The server's side of an agent process: start it, ask it for moves, stop or kill it.

An :class:`AgentProcess` runs :func:`gomoku_apps.web.worker.run_worker` in a child
process and reads its answers on the event loop (``loop.add_reader`` on the pipe), so
a search never blocks the server. Asking for a move is a coroutine that ends with a
:class:`agents.game.MoveChoice`, never an exception: an agent that crashes, returns an
illegal action, or overruns the move time (the worker's own alarm, or failing that the
server killing the process :data:`KILL_GRACE_S` later) comes back as a forfeit.

Processes come from a ``forkserver`` that has the agents imported already, so a new
game's agents start in a fraction of a second; the worker ignores Ctrl-C and is
stopped by the server, and as a daemon it never outlives it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from agents.game import MoveChoice
from gomoku_apps.web.insight import Insight
from gomoku_apps.web.worker import run_worker
from gomoku_env.config import GameConfig

KILL_GRACE_S = 2.0
"""Seconds past the move time before a silent agent process is killed."""
START_TIMEOUT_S = 600.0
"""Seconds an agent may take to build and warm up (AlphaZero loads torch and its
network; a tree search's kernels compile on a machine's first use, minutes on a slow
one)."""
STOP_TIMEOUT_S = 1.0
"""Seconds a stopped agent process gets to exit before it is killed."""

_context: Any = None


def process_context() -> Any:
    """The multiprocessing context for agent processes (a forkserver where the
    platform has one, with the agents imported once in it; else spawn)."""
    global _context
    if _context is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            _context = multiprocessing.get_context("forkserver")
            _context.set_forkserver_preload(["gomoku_apps.web.worker"])
        else:
            _context = multiprocessing.get_context("spawn")
    return _context


Progress = Callable[[Insight], None]


class AgentProcess:
    """One agent (built from ``spec``) in its own process; see the module docstring.

    Args:
        spec: the agent spec, e.g. ``"mcts:simulations=400"``.
        config: the game's rules.
        seed: seeds the agent.
        move_time: seconds per move; a slower move forfeits (None: no limit).
    """

    def __init__(
        self, spec: str, config: GameConfig, seed: int | None, move_time: float | None
    ) -> None:
        self.spec, self.config, self.seed, self.move_time = (
            spec,
            config,
            seed,
            move_time,
        )
        self.failure: str | None = None
        self._process: Any = None
        self._connection: Connection | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiter: asyncio.Future | None = None
        self._ticket: int | None = None
        self._progress: Progress | None = None

    @property
    def alive(self) -> bool:
        """Whether the process runs and has not failed."""
        return (
            self._process is not None
            and self._process.is_alive()
            and self.failure is None
        )

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def start(self) -> None:
        """Start the process and wait until the agent is built.

        Raises:
            ValueError: the spec did not build (the agent's own message), or the
                process died or took longer than :data:`START_TIMEOUT_S` to start.
        """
        context = process_context()
        ours, theirs = context.Pipe()
        self._process = context.Process(
            target=run_worker,
            args=(theirs, self.spec, self.config, self.seed, self.move_time),
            daemon=True,
            name=f"gomoku agent {self.spec}",
        )
        self._process.start()
        theirs.close()
        self._connection, self.failure = ours, None
        self._loop = asyncio.get_running_loop()
        self._waiter = self._loop.create_future()
        self._loop.add_reader(ours.fileno(), self._readable)
        try:
            answer = await asyncio.wait_for(self._waiter, START_TIMEOUT_S)
        except TimeoutError:
            answer = ("error", f"did not start within {START_TIMEOUT_S:.0f} s")
        if answer[0] != "ready":
            self.stop()
            raise ValueError(f"agent {self.spec!r}: {answer[1]}")

    async def think(
        self,
        observation: dict[str, np.ndarray],
        ticket: int,
        progress: Progress | None = None,
    ) -> MoveChoice:
        """The agent's move in ``observation`` (``progress`` gets search samples)."""
        if not self.alive:
            return MoveChoice(None, 0.0, "crash", self.failure or "agent not running")
        self._waiter = self._loop.create_future()
        self._ticket, self._progress = ticket, progress
        started = time.perf_counter()
        self._send(("act", ticket, observation))
        if self.failure is not None:
            return MoveChoice(None, 0.0, "crash", self.failure)
        limit = None if self.move_time is None else self.move_time + KILL_GRACE_S
        try:
            # asyncio.wait, unlike wait_for before Python 3.12, never swallows a
            # cancellation that arrives together with the answer.
            answered, _ = await asyncio.wait({self._waiter}, timeout=limit)
        finally:
            self._progress = None
        if not answered:
            self.failure = f"no move within {self.move_time} s"
            self.kill()
            return MoveChoice(
                None, time.perf_counter() - started, "timeout", self.failure
            )
        answer = self._waiter.result()
        if answer[0] == "error":
            return MoveChoice(None, time.perf_counter() - started, "crash", answer[1])
        _, _, action, forfeit, detail, seconds, insight = answer
        if progress is not None and insight is not None:
            progress(insight | {"final": True})
        return MoveChoice(action, seconds, forfeit, detail)

    def reset(self, seed: int | None = None) -> None:
        """Tell the agent a new game starts (answered in order, after any move)."""
        if self.alive:
            self._send(("reset", seed))

    async def restart(self) -> None:
        """Replace a failed or killed process with a fresh agent."""
        self.stop()
        await self.start()

    @property
    def busy(self) -> bool:
        """Whether a move was asked and not answered yet."""
        return self._waiter is not None and not self._waiter.done()

    def stop(self) -> None:
        """End the process: an idle agent is asked to exit (and killed if it does not
        within :data:`STOP_TIMEOUT_S`), a thinking one is killed at once."""
        if self._process is None:
            return
        if self.alive and not self.busy:
            self._send(("stop",))
            self._process.join(STOP_TIMEOUT_S)
        self.kill()

    def kill(self) -> None:
        """End the process now (a search that overran) and stop reading from it."""
        if self._connection is not None:
            self._loop.remove_reader(self._connection.fileno())
            self._connection.close()
            self._connection = None
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join(STOP_TIMEOUT_S)

    def _send(self, message: tuple) -> None:
        try:
            self._connection.send(message)
        except (OSError, AttributeError):
            self.failure = self.failure or "the agent process has exited"

    def _readable(self) -> None:
        try:
            message = self._connection.recv()
        except (EOFError, OSError):
            self._exited()
            return
        if message[0] == "progress":
            if message[1] == self._ticket and self._progress is not None:
                self._progress(message[2] | {"final": False})
        elif message[0] == "reset_failed":
            self.failure = message[1]
        elif message[0] in ("ready", "error") or message[1] == self._ticket:
            self._resolve(message)

    def _exited(self) -> None:
        """The pipe closed: the process died (a crash, or it was killed)."""
        self._loop.remove_reader(self._connection.fileno())
        self._process.join(STOP_TIMEOUT_S)
        detail = f"the agent process exited (code {self._process.exitcode})"
        self.failure = self.failure or detail
        self._resolve(("error", self.failure))

    def _resolve(self, message: tuple) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(message)
