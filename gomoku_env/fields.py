"""Options declared once: a dataclass field that carries its default, range and help.

A setting is a field of a frozen dataclass declared with :func:`option`. From that one
declaration :func:`check_fields` checks a config, :mod:`agents.specs.flags` makes its
flag and :mod:`agents.specs.parse` types its text in agent specs (:func:`convert`).
:func:`check_number` is the package's one check of a number that a person gives.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import types
import typing
from collections.abc import Callable
from typing import Any

QUOTE_LIMIT = 240
"""Characters of a user's text that an error message quotes."""


def quoted(text: str, limit: int = QUOTE_LIMIT, show: Callable = repr) -> str:
    """``repr(text)`` (or ``show(text)``) cut to ``limit`` characters with a note of the
    rest: an error names a bad value without echoing 10 KB of it."""
    if len(text) <= limit:
        return show(text)
    return f"{show(text[:limit])}... ({len(text) - limit} more characters)"


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
    """A dataclass field with its ``help``, the range :func:`check_fields` enforces, older
    names still accepted (spec ``c``, flag ``-o``), its flag's help group and, with
    ``unset``, what happens when that flag is not given (it then defaults to None)."""
    bounds = {"minimum": minimum, "above": above, "maximum": maximum}
    help = " ".join(help.split())
    metadata = dict(help=help, bounds=bounds, aliases=aliases, flag=flag, unset=unset)
    return dataclasses.field(
        default=default, default_factory=default_factory, metadata=metadata
    )


def check_fields(instance: Any) -> None:
    """Check each int or float field of the dataclass ``instance`` that :func:`option`
    declared against its range (call it from ``__post_init__``)."""
    owner = type(instance)
    hints = typing.get_type_hints(owner)
    for item in dataclasses.fields(owner):
        base, optional = base_type(hints[item.name])
        value = getattr(instance, item.name)
        numeric = "bounds" in item.metadata and base in (int, float)
        if numeric and (value is not None or not optional):
            name, bounds = f"{owner.__name__}.{item.name}", item.metadata["bounds"]
            check_number(name, value, integer=base is int, **bounds)


def check_number(
    name: str,
    value: object,
    *,
    minimum: float | None = None,
    above: float | None = None,
    maximum: float | None = None,
    integer: bool = False,
) -> int | float:
    """``value`` as an int (``integer=True``) or a float; else a TypeError (a bool, not a
    number) or a ValueError (NaN, infinity, out of range) that names ``name``."""
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
        limits = {">=": minimum, ">": above, "<=": maximum}
        given = [
            f"{sign} {int(edge) if float(edge).is_integer() else f'{edge:g}'}"
            for sign, edge in limits.items()
            if edge is not None
        ]
        wanted_range = f" {' and '.join(given)}" if given else ""
        raise ValueError(f"{name} must be {kind}{wanted_range}, got {value!r}")
    return int(value) if integer else float(value)


def convert(name: str, text: str, annotation: Any) -> Any:
    """The text of option ``name`` as ``annotation`` says: ``none`` is None where
    allowed, a bool ``true``/``false`` (or ``yes``/``no``, ``1``/``0``), an int whole,
    any other type the text; a ValueError names the option and the text."""
    base, optional = base_type(annotation)
    lowered = text.lower()
    if optional and lowered == "none":
        return None
    if base is bool and lowered in ("true", "yes", "1", "false", "no", "0"):
        return lowered in ("true", "yes", "1")
    if base is bool:
        raise ValueError(f"{name} must be true or false, got {quoted(text)}")
    if base in (int, float):
        try:
            return base(text)
        except ValueError:
            word = "an integer" if base is int else "a number"
            raise ValueError(f"{name} must be {word}, got {quoted(text)}") from None
    return text


def base_type(annotation: Any) -> tuple[Any, bool]:
    """The type under ``annotation`` and whether it admits None (``X | None``)."""
    if typing.get_origin(annotation) not in (typing.Union, types.UnionType):
        return annotation, False
    arguments = typing.get_args(annotation)
    rest = [item for item in arguments if item is not type(None)]
    return (rest[0] if len(rest) == 1 else object), len(rest) < len(arguments)
