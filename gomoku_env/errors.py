"""Exceptions raised for bad moves and bad input; all are ``ValueError`` subclasses."""


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the current position."""


class NotationError(ValueError):
    """Text that is not a point or move list in Gomoku notation."""
