"""Running the web application with uvicorn until Ctrl-C: ``gomoku serve``.

The socket is bound before the server starts, so the address printed is the one in
use (port 0 picks a free port). The printed address carries the run's token (see
:mod:`gomoku_apps.web.guard`): only who has it can use the server. ``--open`` never puts
the token on a command line (every local user can read those in ``/proc``): as Jupyter
does, it writes a page that redirects to the address into a private file (mode 0600,
in a fresh folder of mode 0700) and opens the browser on that file, which is removed
when the server stops. Uvicorn stops on
Ctrl-C: it closes the connections, the application closes every game and stops its
agent processes, and only then does the process end.
"""

from __future__ import annotations

import contextlib
import html
import ipaddress
import os
import shutil
import socket
import tempfile
import threading
import time
import webbrowser
from collections.abc import Iterator
from pathlib import Path

from gomoku_apps.web.guard import TOKEN_PARAMETER, Access, new_token
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
    """The server's base URL for a bound socket (no token)."""
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def page_url(listener: socket.socket, token: str) -> str:
    """The page's URL with the run's token: the address a person opens."""
    return f"{page_address(listener)}?{TOKEN_PARAMETER}={token}"


def listener_access(listener: socket.socket, token: str) -> Access:
    """The Host addresses and token that requests to ``listener`` must show."""
    host, port = listener.getsockname()[:2]
    return Access.served(token, host, port, is_loopback(host))


def write_redirect_page(url: str) -> Path:
    """A private file holding a page that sends the browser on to ``url``.

    It lies in a fresh folder that only this user can enter (``mkdtemp``), is
    created with mode 0600 under a temporary name and renamed into place, so no
    other user can read it, and nothing already there is followed or replaced.
    """
    folder = Path(tempfile.mkdtemp(prefix="gomoku-serve-"))
    address = html.escape(url, quote=True)
    page = (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">\n'
        f'<meta http-equiv="refresh" content="0;url={address}">\n'
        "<title>gomoku serve</title></head>\n"
        f'<body><p><a href="{address}">Open the gomoku page</a></p></body></html>\n'
    )
    partial = folder / "open.html.partial"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(partial, flags, 0o600), "w", encoding="utf-8") as file:
        file.write(page)
    target = folder / "open.html"
    os.replace(partial, target)
    return target


def _open_browser(url: str) -> Path:
    """Open ``url`` in the browser through :func:`write_redirect_page`; the file."""
    page = write_redirect_page(url)
    threading.Timer(0.5, webbrowser.open, args=(page.as_uri(),)).start()
    return page


def _uvicorn_server(
    listener: socket.socket, token: str, app_options: dict[str, object]
):
    """A uvicorn server of the application, not started yet."""
    import uvicorn

    from gomoku_apps.web.app import create_app

    config = uvicorn.Config(
        create_app(listener_access(listener, token), **app_options),
        log_level="warning",
        ws_max_size=MAX_REQUEST_BYTES,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
    )
    return uvicorn.Server(config)


def serve(
    listener: socket.socket,
    token: str,
    open_browser: bool = False,
    **app_options: object,
) -> None:
    """Serve the page on ``listener`` until Ctrl-C, to requests that show ``token``
    (see :func:`gomoku_apps.web.app.create_app` for ``app_options``)."""
    server = _uvicorn_server(listener, token, app_options)
    page = _open_browser(page_url(listener, token)) if open_browser else None
    try:
        # Uvicorn re-raises the Ctrl-C it handled, once everything has stopped.
        with contextlib.suppress(KeyboardInterrupt):
            server.run(sockets=[listener])
    finally:
        if page is not None:
            shutil.rmtree(page.parent, ignore_errors=True)


@contextlib.contextmanager
def serve_in_background(
    host: str = "127.0.0.1", token: str | None = None, **app_options: object
) -> Iterator[str]:
    """Serve the page from a thread on a free port for the duration of the block;
    yields its base address. Requests must show ``token`` (default: a fresh one that
    nobody knows; pass your own to use the API). For tests, benchmarks and scripts
    that take screenshots. As with ``gomoku serve``, ``python:`` and ``engine:``
    specs run only with ``allow_programs=True``."""
    listener = bind(host, 0)
    app_options.setdefault("loopback", is_loopback(host))
    server = _uvicorn_server(listener, token or new_token(), app_options)
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
