"""``gomoku serve``: play and watch games in a browser (see docs/web.md).

Examples::

    gomoku serve                 # http://127.0.0.1:8000/?token=...
    gomoku serve --port 0 --open # a free port, opened in the browser
    gomoku serve --host 0.0.0.0 --weights-dir nets/   # others may play; weights
                                                      # from nets/ or bundled
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gomoku_apps.cli.options import move_seconds, positive_int


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``serve`` command."""
    parser = subparsers.add_parser(
        "serve",
        help="play and watch games in a browser",
        description="Serve a web page to play Gomoku against agents, watch agents "
        "play with their search shown live, and replay records. Ctrl-C stops it.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; "
        "another address lets other machines play)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="port (default 8000; 0: any free one)"
    )
    parser.add_argument(
        "--open", action="store_true", help="open the page in the web browser"
    )
    parser.add_argument(
        "--move-time",
        type=move_seconds,
        default=60.0,
        metavar="SECONDS",
        help="per-move limit of the agents; a slower move forfeits (default 60)",
    )
    parser.add_argument(
        "--max-games",
        type=positive_int,
        default=16,
        metavar="N",
        help="games kept at once; the least recently used closes beyond (default 16)",
    )
    parser.add_argument(
        "--allow-programs",
        action="store_true",
        help="run the python: and engine: specs that the page names (they run code "
        "as you: off by default, also on loopback), and off loopback accept weights "
        "files anywhere",
    )
    parser.add_argument(
        "--weights-dir",
        type=Path,
        metavar="DIR",
        help="off loopback, the folder whose files an alphazero:weights=NAME spec "
        "may name (besides the bundled networks; nothing else is opened)",
    )
    parser.set_defaults(handler=run_serve)


def run_serve(arguments: argparse.Namespace) -> int:
    """Serve the page until Ctrl-C."""
    from gomoku_apps.web.guard import new_token
    from gomoku_apps.web.server import bind, is_loopback, page_url, serve

    weights_dir = arguments.weights_dir
    if weights_dir is not None:
        weights_dir = weights_dir.expanduser().resolve()
        if not weights_dir.is_dir() or "," in str(weights_dir):
            raise ValueError(
                f"--weights-dir must be an existing folder (without a comma in its "
                f"path), got {str(arguments.weights_dir)!r}"
            )
    listener = bind(arguments.host, arguments.port)
    local = is_loopback(arguments.host)
    token = new_token()
    print(f"gomoku: serving on {page_url(listener, token)} (Ctrl-C stops)", flush=True)
    if not local:
        print(
            f"gomoku: listening on {arguments.host}: anyone who reaches this port "
            "and has this address (its token) can play",
            flush=True,
        )
    serve(
        listener,
        token,
        arguments.open,
        max_games=arguments.max_games,
        allow_programs=arguments.allow_programs,
        move_time=arguments.move_time,
        weights_dir=weights_dir,
        loopback=local,
    )
    print("gomoku: server stopped", flush=True)
    return 0
