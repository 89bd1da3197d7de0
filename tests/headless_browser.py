"""Debian's Chromium, headless, driven by Playwright: for the browser tests, the docs'
screenshot and the page's benchmark.

Playwright's own browser downloads are not used: the system's ``chromium`` is launched
by path, with the flags that keep a headless browser from reaching the network on its
own (updates, sync, field trials).
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from typing import Any

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
MISSING = (
    "no Chromium to drive: install Debian's chromium (make browser) and the webtest "
    "extra (pip install -e '.[webtest]')"
)


def chromium_path() -> str | None:
    """The system Chromium's path, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextlib.contextmanager
def chromium_page(
    width: int = 1100, height: int = 800, scale: float = 1, bypass_csp: bool = True
) -> Iterator[Any]:
    """A Playwright page in a fresh headless Chromium, closed after the block.

    ``bypass_csp``: ignore the page's Content-Security-Policy, which forbids the
    string evaluation that Playwright's ``wait_for_function`` polls with (one test
    loads the page with the policy in force).

    Raises:
        RuntimeError: no Chromium or no Playwright here (the message says what to
            install).
    """
    path = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        path = None
    if path is None:
        raise RuntimeError(MISSING)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, args=list(CHROMIUM_FLAGS)
        )
        try:
            context = browser.new_context(
                viewport={"width": width, "height": height},
                device_scale_factor=scale,
                bypass_csp=bypass_csp,
            )
            yield context.new_page()
        finally:
            browser.close()
