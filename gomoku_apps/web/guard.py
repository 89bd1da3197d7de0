"""Who may use the server: the checks every request passes before its handler.

The server can run programs named by a request (``python:`` and ``engine:`` specs,
when the person who started it allowed them with ``--allow-programs``) and gives each
page's agents its CPU and memory, so, as Jupyter does, it serves only the person who
started it:

- **Host**: the ``Host`` header must be an address the server serves (the bound
  host and port; on loopback also ``localhost``, ``127.0.0.1`` and ``[::1]`` with the
  same port). A DNS-rebinding page reaches the server under its own name and is
  refused.
- **Token**: every ``/api/`` request carries the per-run token that ``gomoku serve``
  prints in the page's URL, in the :data:`TOKEN_HEADER` header or the
  :data:`TOKEN_PARAMETER` query parameter (the websocket URL and the record download
  link, which cannot set headers). The page and its static files need none, so the
  page can read the token from its own URL.
- **Origin**: a request that changes state (any method but GET and HEAD, and every
  websocket handshake) with an ``Origin`` header must come from the server's own
  origin; another site's page is refused even with a guessed token.
- **Content type**: a POST body is JSON sent as ``application/json``, which another
  site's page cannot send without a CORS preflight that this server never answers
  (the record upload also takes ``text/plain``; it runs nothing and changes nothing).

A refused HTTP request gets ``{"error": message}`` with 403 (415 for a content type);
a refused websocket handshake is closed before it opens (HTTP 403).
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from starlette.responses import JSONResponse

from gomoku_apps.web.requests import shown

TOKEN_HEADER = "x-gomoku-token"
TOKEN_PARAMETER = "token"
JSON_TYPE = "application/json"
TEXT_BODY_PATHS = ("/api/records",)
"""Endpoints whose body is text (a game record), also accepted as ``text/plain``."""
SAFE_METHODS = ("GET", "HEAD")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
WEBSOCKET_CLOSE_REFUSED = 4403

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_token() -> str:
    """A fresh per-run token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def _host_name(host: str) -> str:
    """``host`` as it appears in a Host header (an IPv6 address in brackets)."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host.lower()


@dataclass(frozen=True)
class Access:
    """What a request must show: the per-run ``token`` and a Host in ``hosts``
    (``any_ip``: also any IP literal with ``port``, for a wildcard bind)."""

    token: str
    hosts: frozenset[str]
    any_ip: bool = False
    port: int | None = None

    @classmethod
    def served(cls, token: str, host: str, port: int, loopback: bool) -> Access:
        """Access to a server bound to ``host``:``port``: Host headers naming that
        address; on loopback the loopback names of the same port too; on a wildcard
        address (``0.0.0.0``, ``::``) this machine's names and any IP address (a
        rebinding attack needs a domain name)."""
        names = {_host_name(host)}
        if loopback:
            names.update(LOOPBACK_NAMES)
        wildcard = host in WILDCARD_HOSTS
        if wildcard:
            names.update({"localhost", socket.gethostname(), socket.getfqdn()})
        hosts = {f"{name.lower()}:{port}" for name in names}
        if port == 80:  # a browser leaves the default port out
            hosts |= {name.lower() for name in names}
        return cls(token, frozenset(hosts), any_ip=wildcard, port=port)

    def host_allowed(self, host: str) -> bool:
        """Whether a request's Host header names this server."""
        host = host.lower()
        if host in self.hosts:
            return True
        if not self.any_ip:
            return False
        name, _, port = host.rpartition(":")
        if not port.isdigit() or int(port) != self.port:
            return False
        try:
            ipaddress.ip_address(name.strip("[]"))
        except ValueError:
            return False
        return True

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """(status, message) when the request is refused, else None."""
        headers = _headers(scope)
        host = headers.get("host", "")
        if not self.host_allowed(host):
            return 403, (
                f"Host {shown(host)} is not an address this server serves "
                "(open the address that gomoku serve printed)"
            )
        websocket = scope["type"] == "websocket"
        method = "GET" if websocket else scope.get("method", "GET")
        origin = headers.get("origin")
        if (websocket or method not in SAFE_METHODS) and origin is not None:
            scheme = {"ws": "http", "wss": "https"}.get(
                scope["scheme"], scope["scheme"]
            )
            if origin.lower() != f"{scheme}://{host.lower()}":
                return 403, f"cross-origin request from {shown(origin)} refused"
        path = scope.get("path", "")
        if path.startswith("/api/") and not secrets.compare_digest(
            _token(scope, headers).encode(), self.token.encode()
        ):
            return 403, (
                "missing or wrong token: open the address with ?token= that "
                "gomoku serve printed"
            )
        if method == "POST":
            media_type = headers.get("content-type", "").partition(";")[0].strip()
            accepted = (
                (JSON_TYPE, "text/plain") if path in TEXT_BODY_PATHS else (JSON_TYPE,)
            )
            if media_type.lower() not in accepted:
                return 415, (
                    f"content type {shown(media_type)} refused; send {' or '.join(accepted)}"
                )
        return None


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers, names in lower case (the first of each name)."""
    headers: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return headers


def _token(scope: Scope, headers: dict[str, str]) -> str:
    if headers.get(TOKEN_HEADER):
        return headers[TOKEN_HEADER]
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return next(iter(query.get(TOKEN_PARAMETER, ())), "")


SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        b"object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
)
"""Sent with every HTTP response: the page runs only its own scripts and styles,
talks only to its own server, is never framed by another site, and sends no
Referer (which would carry the access token of a link)."""


class AccessGuard:
    """ASGI middleware that refuses what :meth:`Access.refusal` refuses and adds
    :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http":
            send = _with_security_headers(send)
        refused = self.access.refusal(scope)
        if refused is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await receive()  # the handshake; closing now refuses it (HTTP 403)
            await send({"type": "websocket.close", "code": WEBSOCKET_CLOSE_REFUSED})
        else:
            status, message = refused
            await JSONResponse({"error": message}, status_code=status)(
                scope, receive, send
            )


def _with_security_headers(send: Send) -> Send:
    """``send``, adding :data:`SECURITY_HEADERS` to the response's start."""

    async def sending(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = {
                **message,
                "headers": [*message.get("headers", []), *SECURITY_HEADERS],
            }
        await send(message)

    return sending
