"""What goes wrong, said clearly: bad moves and notation, and missing extras.

A number that a person gives is checked by :func:`gomoku_env.fields.check_number`,
beside the option declarations that give its range.

The core (``pip install gomoku_env``) needs numpy, numba, Gymnasium and PettingZoo only.
AlphaZero needs torch and the SB3 integration Stable-Baselines3; their entry points call
:func:`require_extra` first, so a user without them reads which extra to install
instead of a bare ``No module named 'torch'``.
"""

from __future__ import annotations

import importlib


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the current position."""


class NotationError(ValueError):
    """Text that is not a point or move list in Gomoku notation."""


TORCH_CPU_HINT = (
    "for the CPU build of torch: "
    "pip install torch --index-url https://download.pytorch.org/whl/cpu"
)


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message names the extra."""


def install_hint(extra: str) -> str:
    """How to install an extra: the package comes from a clone or a built wheel (it is
    not on PyPI), so the command names the clone; ``make setup`` installs every extra.

    >>> install_hint("ray")
    "pip install -e '.[ray]' in the gomoku_env folder (make setup installs every extra)"
    """
    return f"pip install -e '.[{extra}]' in the gomoku_env folder (make setup installs every extra)"


def require_extra(modules: tuple[str, ...], extra: str, purpose: str) -> None:
    """Import each of ``modules``, or raise :class:`MissingExtraError` saying that
    ``purpose`` needs it and how to install the extra (:func:`install_hint`)."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as error:
            hint = f"; {TORCH_CPU_HINT}" if name == "torch" else ""
            raise MissingExtraError(
                f"{purpose} needs {name}, which is not installed: "
                f"{install_hint(extra)}{hint}"
            ) from error
