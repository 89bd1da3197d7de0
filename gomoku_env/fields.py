"""Options declared once: a dataclass field that carries its default, range and help.

A setting is a field of a frozen config dataclass, declared with :func:`option`: its
type from the annotation, its default, the range a value must lie in and one line of
help, all in ``dataclasses.field(metadata=...)``. From that one declaration:

* :func:`check_fields` checks a config (call it from ``__post_init__``) with
  :func:`check_number`, the package's one check of a number that a person gives;
* :mod:`agents.specs.flags` makes command-line flags (``--field-name``, typed, the
  help as their help);
* :mod:`agents.specs.parse` types the ``key=value`` text of agent specs with
  :func:`convert`, and ``gomoku agents`` lists each field's help.

Numbers with a rule of their own are checked where that rule lives, in the same
words: an action by :func:`gomoku_env.legal.check_action`, the board size and win
length by :class:`gomoku_env.config.GameConfig`.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Search:
...     simulations: int = option(100, help="simulations per move", minimum=1)
...     def __post_init__(self) -> None:
...         check_fields(self)
>>> Search(simulations=0)
Traceback (most recent call last):
...
ValueError: Search.simulations must be an int >= 1, got 0
>>> convert("simulations", "8", int), convert("weights", "15", str | None)
(8, '15')
>>> check_number("time", float("nan"), above=0)
Traceback (most recent call last):
...
ValueError: time must be a finite number > 0, got nan
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import types
import typing
from typing import Any

QUOTE_LIMIT = 240
"""Characters of a user's text that an error message quotes."""


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, cut to ``limit`` characters with a note of the rest: an error
    names a bad value without echoing 10 KB of it."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text) - limit} more characters)"


def option(
    default: Any = dataclasses.MISSING,
    *,
    help: str,
    default_factory: Any = dataclasses.MISSING,
    minimum: float | None = None,
    above: float | None = None,
    maximum: float | None = None,
    aliases: tuple[str, ...] = (),
    flag: str | None = None,
    unset: str | None = None,
) -> Any:
    """A dataclass field: its default (or ``default_factory``), its ``help``, the range
    that :func:`check_fields` enforces on a number, and older names still accepted
    (``aliases``: a spec option's ``c``, a flag's ``--replay``).

    ``flag`` names the group of a command's flags that this field's flag joins
    (``agents.specs.flags.add_flags(..., group=flag)`` picks the fields by it);
    ``unset`` makes that flag default to "not given", saying in words what then happens
    after the default (``unset="fewer for short budgets"`` shows "(unset: 64, fewer for
    short budgets)")."""
    metadata = {
        "help": " ".join(help.split()),
        "bounds": {"minimum": minimum, "above": above, "maximum": maximum},
        "aliases": aliases,
        "flag": flag,
        "unset": unset,
    }
    return dataclasses.field(
        default=default, default_factory=default_factory, metadata=metadata
    )


def field_help(item: dataclasses.Field) -> str:
    """The help of a field declared with :func:`option` (``""`` for another)."""
    return item.metadata.get("help", "")


def check_fields(instance: Any) -> None:
    """Check every number field (int or float) of the dataclass ``instance`` declared
    with :func:`option` against its range.

    Raises:
        TypeError, ValueError: naming the class, the field and the bad value.
    """
    owner = type(instance)
    hints = typing.get_type_hints(owner)
    for item in dataclasses.fields(owner):
        bounds = item.metadata.get("bounds")
        value = getattr(instance, item.name)
        base, optional = base_type(hints[item.name])
        numeric = base in (int, float, _INT_OR_FLOAT)
        if bounds is None or not numeric or (value is None and optional):
            continue
        check_number(
            f"{owner.__name__}.{item.name}", value, integer=base is int, **bounds
        )


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

    It refuses a bool, a non-number, NaN and infinity, and a value outside the range.

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


def convert(name: str, text: str, annotation: Any) -> Any:
    """The text ``text`` of option ``name`` as the type ``annotation`` says.

    ``none`` gives None where the type allows it; a bool is ``true``/``false`` (also
    ``yes``/``no``, ``1``/``0``); an int must be whole; ``int | float`` takes either;
    any other type (a path, a name) keeps the text.

    Raises:
        ValueError: naming the option, the text and the type wanted.
    """
    base, optional = base_type(annotation)
    if optional and text.lower() == "none":
        return None
    if base is bool:
        lowered = text.lower()
        if lowered in _BOOLEANS:
            return _BOOLEANS[lowered]
        raise ValueError(f"{name} must be true or false, got {quoted(text)}")
    if base in (int, float, _INT_OR_FLOAT):
        try:
            return int(text) if base is int else _number(text)
        except ValueError:
            word = "an integer" if base is int else "a number"
            raise ValueError(f"{name} must be {word}, got {quoted(text)}") from None
    return text


def type_name(annotation: Any) -> str:
    """A short name for an option's type in help texts: int, number, bool, text."""
    base, optional = base_type(annotation)
    name = {int: "int", float: "number", bool: "bool", _INT_OR_FLOAT: "number"}.get(
        base, "text"
    )
    return f"{name} or none" if optional else name


_BOOLEANS = {
    "true": True,
    "yes": True,
    "1": True,
    "false": False,
    "no": False,
    "0": False,
}
_INT_OR_FLOAT = object()
"""Stands for ``int | float`` in :func:`base_type`."""


def _number(text: str) -> int | float:
    """``3`` as an int, ``0.5`` or ``1e-3`` as a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def base_type(annotation: Any) -> tuple[Any, bool]:
    """The type under ``annotation`` and whether it admits None (``X | None``)."""
    arguments = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        optional = type(None) in arguments
        rest = [item for item in arguments if item is not type(None)]
        if set(rest) == {int, float}:
            return _INT_OR_FLOAT, optional
        return (rest[0] if len(rest) == 1 else object), optional
    return annotation, False
