"""Running the web application with uvicorn until Ctrl-C: ``gomoku serve``.

The socket is bound before the server starts, so the address printed is the one in
use (port 0 picks a free port). Uvicorn stops on Ctrl-C: it closes the connections,
the application closes every game and stops its agent processes, and only then does
the process end.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
import webbrowser
from collections.abc import Iterator

from gomoku_apps.web.requests import MAX_REQUEST_BYTES

SHUTDOWN_GRACE_S = 2
"""Seconds that open connections get to finish when the server stops."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port``; a clear error when it cannot be."""
    if not 0 <= port <= 65535:
        raise ValueError(f"--port must be in 0..65535, got {port}")
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listener = socket.socket(info[0], socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(info[4])
    except OSError as error:
        raise ValueError(
            f"cannot listen on {host}:{port}: {error.strerror or error}"
        ) from None
    listener.listen(128)
    return listener


def page_address(listener: socket.socket) -> str:
    """The page's URL for a bound socket."""
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _uvicorn_server(app_options: dict[str, object]):
    """A uvicorn server of the application, not started yet."""
    import uvicorn

    from gomoku_apps.web.app import create_app

    config = uvicorn.Config(
        create_app(**app_options),
        log_level="warning",
        ws_max_size=MAX_REQUEST_BYTES,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
    )
    return uvicorn.Server(config)


def serve(
    listener: socket.socket,
    open_browser: bool = False,
    **app_options: object,
) -> None:
    """Serve the page on ``listener`` until Ctrl-C (see :func:`gomoku_apps.web.app.create_app`
    for ``app_options``)."""
    server = _uvicorn_server(app_options)
    address = page_address(listener)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(address,)).start()
    # Uvicorn re-raises the Ctrl-C it handled, once everything has stopped.
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[listener])


@contextlib.contextmanager
def serve_in_background(
    host: str = "127.0.0.1", **app_options: object
) -> Iterator[str]:
    """Serve the page from a thread on a free port for the duration of the block;
    yields its address. For tests, benchmarks and scripts that take screenshots."""
    listener = bind(host, 0)
    server = _uvicorn_server(app_options)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [listener]}, daemon=True
    )
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.01)
    try:
        yield page_address(listener)
    finally:
        server.should_exit = True
        thread.join()
        listener.close()
