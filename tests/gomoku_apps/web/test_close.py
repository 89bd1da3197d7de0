"""Closing a game always ends its agents, and DELETE always answers (issue 24, 4).

Before Python 3.12, ``asyncio.wait_for`` swallows a cancellation that arrives as its
answer does; the game's task then ran on, ``DELETE`` waited on it for ever and the
agents' processes lived until the server exited. Agents that answer at once (delay 0)
hit that within about 50 games.
"""

import asyncio
import json
import multiprocessing
import urllib.request

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")

from gomoku_apps.web.server import serve_in_background
from tests.gomoku_apps.web.helpers import TOKEN

GAMES = 60
HANG_GUARD_S = 60
"""Seconds a request may take before the test fails as hung (not a speed check)."""


def request(method: str, url: str, body: dict | None = None) -> int:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "X-Gomoku-Token": TOKEN}
    sent = urllib.request.Request(url, data=data, method=method, headers=headers)
    with urllib.request.urlopen(sent, timeout=HANG_GUARD_S) as response:
        if response.status == 201:
            return json.loads(response.read())["id"]
        return response.status


def agent_processes() -> list:
    return [
        process
        for process in multiprocessing.active_children()
        if process.name.startswith("gomoku agent")
    ]


@pytest.mark.timeout(GAMES * HANG_GUARD_S)
def test_deleting_games_whose_agents_answer_at_once_always_answers():
    game = {"size": 15, "black": "random", "white": "heuristic", "delay": 0}
    with serve_in_background(token=TOKEN, move_time=30) as address:
        for number in range(GAMES):
            game_id = request("POST", address + "api/games", game)
            if number % 2:
                command = {"type": "new"}
                request("POST", address + f"api/games/{game_id}/commands", command)
            assert request("DELETE", address + f"api/games/{game_id}") == 204
            assert not agent_processes(), number


def test_a_game_closed_as_its_agent_answers_still_closes():
    """The race made certain: the agent's answer arrives in the same step of the
    event loop as the close (which cancels the game's task)."""
    from gomoku_apps.gui.session import HUMAN
    from gomoku_apps.web.registry import GameRegistry
    from gomoku_apps.web.requests import GameOptions
    from gomoku_env.config import GameConfig
    from tests.gomoku_apps.web.web_agents import failing_spec

    async def answer_then_close() -> tuple[bool, object]:
        registry = GameRegistry()
        sleeper = failing_spec("Sleeper")  # thinks until we answer for it
        options = GameOptions(GameConfig(7), sleeper, HUMAN, 1, 0.0, 30.0)
        room = await registry.create(options)
        agent = room.game.agents()[0]
        for _ in range(HANG_GUARD_S * 100):
            if agent.busy:
                break
            await asyncio.sleep(0.01)
        assert agent.busy
        agent._resolve(("move", agent._ticket, 24, None, "", 0.0, None))
        closing = asyncio.ensure_future(registry.delete(room.game.id))
        closed, _ = await asyncio.wait({closing}, timeout=HANG_GUARD_S)
        process = agent._process
        if not closed:  # the old code: clean up what it leaked
            agent.kill()
        return bool(closed), process

    closed, process = asyncio.run(answer_then_close())
    assert closed, "DELETE never answered"
    assert not process.is_alive()
