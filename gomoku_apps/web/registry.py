"""The games a server holds: created with their agents, found by id, closed.

Several games run at once, each with its own agent processes. Their number is capped
(:data:`DEFAULT_MAX_GAMES`): a new game beyond the cap closes the game used least
recently, so pages left open cannot exhaust the machine.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict

from gomoku_apps.web.agent_process import AgentProcess
from gomoku_apps.web.game import WebGame, is_agent
from gomoku_apps.web.requests import (
    BusyError,
    GameOptions,
    RequestError,
    UnknownGameError,
    shown,
)
from gomoku_apps.web.room import GameRoom

DEFAULT_MAX_GAMES = 16


class GameRegistry:
    """The server's games by id, least recently used first."""

    def __init__(self, max_games: int = DEFAULT_MAX_GAMES) -> None:
        if max_games < 1:
            raise ValueError(f"max_games must be at least 1, got {max_games!r}")
        self.max_games = max_games
        self._rooms: OrderedDict[str, GameRoom] = OrderedDict()
        self._starting = 0

    def __len__(self) -> int:
        return len(self._rooms)

    def rooms(self) -> list[GameRoom]:
        """Every game, least recently used first (listing them uses none)."""
        return list(self._rooms.values())

    async def create(self, options: GameOptions) -> GameRoom:
        """A new game with its agents started; RequestError (and no game) when an
        agent's spec does not build, BusyError when ``max_games`` games are already
        starting (each starts agent processes before it counts among the games, so
        without this limit concurrent requests started any number of them)."""
        if self._starting >= self.max_games:
            raise BusyError(
                f"{self._starting} games are starting already, the most at once "
                f"(--max-games {self.max_games}); try again when they have started"
            )
        self._starting += 1
        try:
            agents = await _start_agents(options)
        finally:
            self._starting -= 1
        game_id = secrets.token_urlsafe(6)
        room = GameRoom(WebGame(game_id, options, agents))
        self._rooms[game_id] = room
        room.start()
        while len(self._rooms) > self.max_games:
            _, oldest = self._rooms.popitem(last=False)
            await oldest.close()
        return room

    def get(self, game_id: str) -> GameRoom:
        """The game with this id, now the most recently used; UnknownGameError if none."""
        room = self._rooms.get(game_id)
        if room is None:
            raise UnknownGameError(f"unknown game id {shown(game_id)}")
        self._rooms.move_to_end(game_id)
        return room

    async def delete(self, game_id: str) -> None:
        """Close a game and its agents; UnknownGameError if there is none."""
        room = self.get(game_id)
        del self._rooms[game_id]
        await room.close()

    async def close_all(self) -> None:
        """Close every game (the server is stopping)."""
        while self._rooms:
            _, room = self._rooms.popitem()
            await room.close()


async def _start_agents(options: GameOptions) -> dict[str, AgentProcess | None]:
    """One started agent process per agent seat (None for a person)."""
    seeds = {
        "black": options.seed,
        "white": None if options.seed is None else options.seed + 1,
    }
    specs = {"black": options.black, "white": options.white}
    agents = {
        color: AgentProcess(spec, options.config, seeds[color], options.move_time)
        if is_agent(spec)
        else None
        for color, spec in specs.items()
    }
    started = [agent for agent in agents.values() if agent is not None]
    results = await asyncio.gather(
        *(agent.start() for agent in started), return_exceptions=True
    )
    errors = [result for result in results if isinstance(result, BaseException)]
    if errors:
        for agent in started:
            agent.stop()
        raise RequestError(str(errors[0])) from errors[0]
    return agents
