"""The browser tests' server and Chromium (skipped, saying why, where there is none)."""

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")
pytest.importorskip(
    "playwright",
    reason="Playwright is not installed: pip install -e '.[webtest]'",
)

import contextlib

from gomoku_apps.web.server import serve_in_background
from tests.headless_browser import MISSING, chromium_page

BROWSER_SKIP_REASON = MISSING


TOKEN = "browser-test-token"


@contextlib.contextmanager
def web_server():
    """The app served from a thread on a free loopback port; yields the page's URL
    with the run's token, as ``gomoku serve`` prints it."""
    with serve_in_background(token=TOKEN, move_time=60) as address:
        yield f"{address}?token={TOKEN}"


__all__ = ["BROWSER_SKIP_REASON", "chromium_page", "web_server"]
