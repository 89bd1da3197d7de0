"""What goes wrong, said clearly: bad input, missing extras, and the one number check.

:func:`check_number` is the shared check for a number that a person gives within a
range (most env arguments, agent spec options, command-line flags and config fields go
through it): it refuses a bool, a non-number, NaN and infinity, and a value outside the
range, with a message that names the option and the value. Numbers with a rule of their
own are checked where that rule lives, in the same words: an action by
:func:`gomoku_env.legal.check_action`, the board size and win length by
:class:`gomoku_env.config.GameConfig`, and a few others beside their option (the vector
env's thread count, for one).

The core (``pip install gomoku_env``) needs numpy, numba, Gymnasium and PettingZoo only.
AlphaZero needs torch and the SB3 integration Stable-Baselines3; their entry points call
:func:`require_extra` first, so a user without them reads which extra to install
instead of a bare ``No module named 'torch'``.

>>> check_number("simulations", 200, minimum=1, integer=True)
200
>>> check_number("time", 0.5, above=0)
0.5
>>> check_number("time", float("nan"), above=0)
Traceback (most recent call last):
...
ValueError: time must be a finite number > 0, got nan
"""

from __future__ import annotations

import importlib
import math
import numbers


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the current position."""


class NotationError(ValueError):
    """Text that is not a point or move list in Gomoku notation."""


def check_number(
    name: str,
    value: object,
    *,
    minimum: float | None = None,
    above: float | None = None,
    maximum: float | None = None,
    integer: bool = False,
) -> int | float:
    """``value`` as an int (``integer=True``) or a float, or a ValueError naming ``name``.

    Args:
        name: the option as the user wrote it, e.g. ``"simulations"``.
        value: what the user gave.
        minimum: the smallest value allowed (inclusive).
        above: a bound the value must exceed (exclusive), e.g. ``above=0`` for a time.
        maximum: the largest value allowed (inclusive).
        integer: whether the value must be a whole number (an int, not ``2.0``).

    Raises:
        TypeError: a bool, or not a (real) number at all.
        ValueError: NaN, infinity, or outside the range.
    """
    kind = "an int" if integer else "a finite number"
    wanted = (numbers.Integral,) if integer else (numbers.Real,)
    if isinstance(value, bool) or not isinstance(value, wanted):
        raise TypeError(f"{name} must be {kind}, got {value!r}")
    if (
        (not integer and not math.isfinite(value))
        or (minimum is not None and value < minimum)
        or (above is not None and value <= above)
        or (maximum is not None and value > maximum)
    ):
        bounds = [
            f"{sign} {bound:g}"
            for sign, bound in ((">=", minimum), (">", above), ("<=", maximum))
            if bound is not None
        ]
        wanted_range = "".join(f" {b}" for b in bounds[:1]) + "".join(
            f" and {b}" for b in bounds[1:]
        )
        raise ValueError(f"{name} must be {kind}{wanted_range}, got {value!r}")
    return int(value) if integer else float(value)


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
