"""Running the web application with uvicorn until Ctrl-C: ``gomoku serve``.

The socket is bound before the server starts, so the address printed is the one in
use (port 0 picks a free port). Uvicorn stops on Ctrl-C: it closes the connections,
the application closes every game and stops its agent processes, and only then does
the process end.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser

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
        raise ValueError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listener.listen(128)
    return listener


def page_address(listener: socket.socket) -> str:
    """The page's URL for a bound socket."""
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(
    listener: socket.socket,
    open_browser: bool = False,
    **app_options: object,
) -> None:
    """Serve the page on ``listener`` until Ctrl-C (see :func:`gomoku_apps.web.app.create_app`
    for ``app_options``)."""
    import uvicorn

    from gomoku_apps.web.app import create_app

    config = uvicorn.Config(
        create_app(**app_options),
        log_level="warning",
        ws_max_size=MAX_REQUEST_BYTES,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
    )
    server = uvicorn.Server(config)
    address = page_address(listener)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(address,)).start()
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass  # uvicorn re-raises the Ctrl-C it handled, once everything has stopped
