"""Shared helpers of the web tests: the app under TestClient, specs of failing agents,
and waiting for a game state over the websocket."""

import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="the webtest extra is not installed")

with warnings.catch_warnings():  # newer Starlette advises httpx2 over httpx
    warnings.filterwarnings("ignore", message="Using `httpx` with")
    from starlette.testclient import TestClient

from gomoku_apps.web.app import create_app
from gomoku_apps.web.guard import TOKEN_HEADER, Access
from tests.gomoku_apps.web.web_agents import failing_spec

MESSAGES_LIMIT = 500
"""Most websocket messages read while waiting for a state (a hang guard)."""


TOKEN = "test-token"
"""The run's token of the test apps (every request of :func:`client` carries it)."""
TEST_HOST = "testserver"
"""The Host that TestClient sends."""


def client(**options) -> TestClient:
    """A TestClient on a fresh app that carries the app's token (use it as a context
    manager). Unless ``options`` say otherwise, it runs the page's programs (the
    tests' failing agents are ``python:`` specs)."""
    options.setdefault("allow_programs", True)
    app = create_app(Access(TOKEN, frozenset({TEST_HOST})), **options)
    return TestClient(app, headers={TOKEN_HEADER: TOKEN})


def new_game(test_client: TestClient, **options) -> dict:
    """Create a game; its state."""
    response = test_client.post("/api/games", json=options)
    assert response.status_code == 201, response.text
    return response.json()


def wait_for(websocket, predicate) -> dict:
    """Read messages until a state message satisfies ``predicate``; that state."""
    for _ in range(MESSAGES_LIMIT):
        message = websocket.receive_json()
        if message["type"] == "state" and predicate(message):
            return message
    raise AssertionError(f"no matching state in {MESSAGES_LIMIT} messages")


__all__ = ["TOKEN", "client", "failing_spec", "new_game", "wait_for"]
