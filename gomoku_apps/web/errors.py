"""Errors of the web API: each names the bad value and carries its HTTP status."""

from __future__ import annotations


class RequestError(ValueError):
    """A request the server refuses; nothing changed. ``status`` is the HTTP code."""

    status = 400


class UnknownGameError(RequestError):
    """No game has this id (it never existed, was deleted or was replaced)."""

    status = 404


class ConflictError(RequestError):
    """The request is well formed but not allowed now: an occupied or forbidden point,
    a move out of turn, undo with nothing to undo, the game already over."""

    status = 409


class TooLargeError(RequestError):
    """A request body or message larger than the server accepts."""

    status = 413
