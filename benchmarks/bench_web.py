"""The web server's own cost: moves per second through its websocket, and the page's
time to first paint.

Moves: ``random`` plays ``random`` (no thinking to speak of), so what is measured is
the server's path for a move: the agent's process answering over its pipe, the game
update, and the state message over the websocket to a watching client. The reference,
measured in the same run, is the same game loop in this process with no server
(:func:`agents.game.play_game`); the ratio is the server's overhead per move.

First paint: Chromium's paint timing (``performance.getEntriesByType("paint")``) of
the page, against a one-line HTML page (a ``data:`` URL) measured in the same
browser, so the ratio is the page's own weight. Needs Debian's
chromium and Playwright (the ``webtest`` extra); skipped with a note otherwise.

Run: ``.venv/bin/python benchmarks/bench_web.py [--games 4 --size 9]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from pathlib import Path

from agents import RandomAgent
from agents.game import play_game
from gomoku_apps.web.server import serve_in_background
from gomoku_env.config import GameConfig

TOKEN = "bench-web"
"""The served page's token (see docs/web.md, Who can use it)."""
FIRST_PAINT = """(() => {
  const paint = performance.getEntriesByType("paint");
  const first = paint.find((entry) => entry.name === "first-contentful-paint") || paint[0];
  return first ? first.startTime : null;
})()"""


def in_process_moves_per_second(games: int, size: int) -> float:
    """The reference: the game loop with two random agents, no server (after one
    warm-up game, as the server's measure starts after its first game)."""
    play_game(RandomAgent(), RandomAgent(), GameConfig(size))
    moves, start = 0, time.perf_counter()
    for game in range(games):
        outcome = play_game(
            RandomAgent(), RandomAgent(), GameConfig(size), seeds=(game, game + 1)
        )
        moves += len(outcome.moves)
    return moves / (time.perf_counter() - start)


def _post(address: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        address + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Gomoku-Token": TOKEN},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def server_moves_per_second(address: str, games: int, size: int) -> float:
    """Moves per second seen by a websocket client watching random play random."""
    from websockets.sync.client import connect

    options = {"size": size, "black": "random", "white": "random", "delay": 0}
    game = _post(address, "api/games", options | {"seed": 0})
    socket_address = (
        address.replace("http", "ws", 1) + f"api/games/{game['id']}/ws?token={TOKEN}"
    )
    moves, played = 0, -1  # the first game is the warm-up
    with connect(socket_address) as websocket:
        start = time.perf_counter()
        while played < games:
            state = json.loads(websocket.recv())
            if state["type"] == "state" and state["over"]:
                if played == -1:
                    start = time.perf_counter()
                else:
                    moves += len(state["moves"])
                played += 1
                websocket.send(json.dumps({"type": "new"}))
        seconds = time.perf_counter() - start
    return moves / seconds


def first_paint_ms(address: str) -> tuple[float, float] | None:
    """(the page's, a one-line page's) first contentful paint in ms, or None."""
    # The headless-browser helper lives with the browser tests, from the repo root.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.headless_browser import chromium_page

    try:
        with chromium_page() as page:
            page.goto("data:text/html,<p>Gomoku</p>")
            blank = page.wait_for_function(FIRST_PAINT, timeout=60_000).json_value()
            page.goto(f"{address}?token={TOKEN}")
            painted = page.wait_for_function(FIRST_PAINT, timeout=60_000).json_value()
            return painted, blank
    except RuntimeError as error:
        print(f"first paint: skipped ({error})")
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per measure")
    parser.add_argument("--size", type=int, default=9, help="board size")
    arguments = parser.parse_args()
    reference = in_process_moves_per_second(arguments.games, arguments.size)
    with serve_in_background(token=TOKEN) as address:
        served = server_moves_per_second(address, arguments.games, arguments.size)
        paint = first_paint_ms(address)
    print(
        f"random vs random, {arguments.size}x{arguments.size}, {arguments.games} games"
    )
    print(f"  in process (reference): {reference:10.0f} moves/s")
    print(f"  through the websocket:  {served:10.0f} moves/s")
    print(f"  server overhead: {reference / served:.1f}x the in-process time per move")
    if paint is not None:
        page, blank = paint
        print(
            f"first contentful paint: page {page:.0f} ms, one-line page {blank:.0f} ms"
        )
        print(f"  the page takes {page / blank:.2f}x a one-line page to first paint")


if __name__ == "__main__":
    main()
