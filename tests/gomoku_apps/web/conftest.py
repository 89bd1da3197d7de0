"""The web tests' shared app: one TestClient per test module."""

import pytest


@pytest.fixture(scope="module")
def api():
    """A TestClient on a fresh app (agents get 30 s a move)."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from tests.gomoku_apps.web.helpers import client

    with client(move_time=30) as test_client:
        yield test_client
