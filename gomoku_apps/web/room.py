"""A game being played on the server: its state, the pages watching it, its agents' turns.

A :class:`GameRoom` owns one :class:`~gomoku_apps.web.game.WebGame`. Commands from the
page (REST or websocket) change the game at once, on the event loop; a background task
asks the agent to move whenever it is an agent's turn, waits for it in its process
without blocking anything, and applies the answer only if the position it was asked
about is still on the board (an undo or a new game meanwhile makes it stale). Every
change is published to the pages watching the game, and so are samples of the agent's
search while it thinks.

Closing a game does not rely on cancelling its task alone: before Python 3.12,
``asyncio.wait_for`` swallows a cancellation that arrives as the awaited answer does,
and the task would run on. So :meth:`GameRoom.close` marks the room closed (the task
ends at its next step), stops the agents' processes first, and waits for the task a
bounded time.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from gomoku_apps.web.agent_process import AgentProcess
from gomoku_apps.web.game import WebGame
from gomoku_apps.web.insight import Insight
from gomoku_apps.web.requests import Command

Message = dict[str, Any]
CLOSE_TIMEOUT_S = 5.0
"""Seconds a closing game waits for its turn-taking task (which ends at its next
step once its agents are stopped; the bound only guards against a hang)."""


WATCHER_BACKLOG = 64
"""Messages kept for a watcher that has not read them (the oldest are dropped)."""


class GameRoom:
    """One game, its watchers (queues of messages) and its agents' turns."""

    def __init__(self, game: WebGame) -> None:
        self.game = game
        self._asked: int | None = None
        self._watchers: set[asyncio.Queue[Message]] = set()
        self._changed = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._closed = False

    @property
    def thinking(self) -> bool:
        """Whether an agent is working on the position on the board."""
        return self._asked == self.game.session.generation

    def start(self) -> None:
        """Start taking the agents' turns."""
        self._task = asyncio.get_running_loop().create_task(self._drive())

    async def close(self) -> None:
        """Stop the agents' processes and their turns; tell the watchers. Returns
        within about :data:`CLOSE_TIMEOUT_S` plus the agents' stop time, always."""
        self._closed = True
        self._changed.set()
        for agent in self.game.agents():
            agent.stop()
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=CLOSE_TIMEOUT_S)
        self._publish({"type": "closed", "id": self.game.id})

    def state(self) -> Message:
        return self.game.state(self.thinking)

    def watch(self) -> asyncio.Queue[Message]:
        """A queue that receives every message about this game from now on."""
        queue: asyncio.Queue[Message] = asyncio.Queue(maxsize=WATCHER_BACKLOG)
        self._watchers.add(queue)
        return queue

    def unwatch(self, queue: asyncio.Queue[Message]) -> None:
        self._watchers.discard(queue)

    async def apply(self, command: Command) -> Message:
        """Carry out a command (RequestError, and no change, when it is refused)."""
        game = self.game
        if command.kind == "move":
            game.play(command.point, command.color)
        elif command.kind == "undo":
            game.undo()
        elif command.kind == "resign":
            game.resign()
        elif command.kind == "speed":
            game.delay = command.delay
        elif command.kind == "new":
            await self._restart_failed_agents()
            game.new_game()
        else:
            await self._restart_failed_agents()
            game.swap()
        self._changed.set()
        self._publish_state()
        return self.state()

    async def _restart_failed_agents(self) -> None:
        """A new game gets a fresh process for an agent that crashed or timed out."""
        failed = [agent for agent in self.game.agents() if not agent.alive]
        await asyncio.gather(*(agent.restart() for agent in failed))

    def _publish(self, message: Message) -> None:
        """Queue ``message`` for every watcher. A watcher that does not read keeps
        only the newest :data:`WATCHER_BACKLOG` messages (each state message holds the
        whole game, so the newest say everything): five sockets that never read grew
        the server without bound before."""
        for queue in self._watchers:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)

    def _publish_state(self) -> None:
        self._publish(self.state())

    async def _drive(self) -> None:
        while not self._closed:
            agent = self.game.agent_to_move
            if agent is None:
                self._changed.clear()
                await self._changed.wait()
            else:
                await self._agent_turn(agent)

    async def _agent_turn(self, agent: AgentProcess) -> None:
        game, loop = self.game, asyncio.get_running_loop()
        version = game.session.generation
        color = game.state(True)["to_move"]
        self._asked = version
        self._publish_state()
        started = loop.time()

        def searched(insight: Insight) -> None:
            if game.session.generation == version:
                self._publish({"type": "search", "color": color, **insight})

        choice = await agent.think(game.session.observation(), version, searched)
        await self._hold(version, started)
        self._asked = None
        if game.session.generation != version:
            return
        if choice.forfeit is not None:
            game.end_by_forfeit(choice.forfeit, choice.detail)
        else:
            game.play_agent_move(choice.action)
        self._publish_state()

    async def _hold(self, version: int, started: float) -> None:
        """Let the move appear no sooner than the game's delay (the speed control,
        which may change meanwhile) after ``started``, unless the game changes."""
        loop = asyncio.get_running_loop()
        while self.game.session.generation == version and not self._closed:
            remaining = started + self.game.delay - loop.time()
            if remaining <= 0:
                return
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
