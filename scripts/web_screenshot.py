"""Take docs/web.png: the `gomoku serve` page in the middle of a game between two
MCTS agents, with the live overlay of the searching agent on.

Needs the ``web`` and ``webtest`` extras and Debian's chromium. Run with
``.venv/bin/python scripts/web_screenshot.py`` from the repository root.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gomoku_apps.web.server import serve_in_background
from gomoku_env.files import write_bytes_atomically

# The headless-browser helper lives with the tests that use it most: import it from
# the repository root.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.headless_browser import chromium_page

OUTPUT = Path("docs/web.png")
MOVES_BEFORE = 12
"""Moves on the board when the picture is taken."""
PLAYERS = {
    "black": "mcts:time=3,simulations=1000000",
    "white": "mcts:time=3,simulations=1000000",
}
WAIT_MS = 300_000
TOKEN = "web-screenshot"
"""The served page's token (see docs/web.md, Who can use it)."""


def main() -> None:
    with (
        serve_in_background(token=TOKEN) as address,
        chromium_page(1200, 820) as page,
    ):
        page.goto(f"{address}?token={TOKEN}")
        page.wait_for_function("window.gomoku.page.game !== null", timeout=WAIT_MS)
        page.fill("#size", "15")
        page.fill("#black", PLAYERS["black"])
        page.fill("#white", PLAYERS["white"])
        page.click("#start")
        page.wait_for_function(
            "window.gomoku.page.game && window.gomoku.page.game.players.black"
            f" === '{PLAYERS['black']}'",
            timeout=WAIT_MS,
        )
        page.evaluate("document.getElementById('speed').value = 0")
        page.dispatch_event("#speed", "change")
        live_search = (
            "(() => { const p = window.gomoku.page; return p.game.thinking"
            f" && p.game.moves.length >= {MOVES_BEFORE} && p.insight"
            " && !p.insight.final && p.insight.color === p.game.to_move"
            " && p.insight.pv.length >= 3; })()"
        )
        page.wait_for_function(live_search, timeout=WAIT_MS)
        write_bytes_atomically(OUTPUT, page.screenshot())
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
