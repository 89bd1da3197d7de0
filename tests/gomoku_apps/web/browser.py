"""The browser tests' server and Chromium (skipped, saying why, where there is none)."""

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")
pytest.importorskip(
    "playwright",
    reason="Playwright is not installed: pip install 'gomoku_env[webtest]'",
)

from gomoku_apps.web.server import serve_in_background
from tests.headless_browser import MISSING, chromium_page

BROWSER_SKIP_REASON = MISSING


def web_server():
    """The app served from a thread on a free loopback port; yields its address."""
    return serve_in_background(move_time=60)


__all__ = ["BROWSER_SKIP_REASON", "chromium_page", "web_server"]
