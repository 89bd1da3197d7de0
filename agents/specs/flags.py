"""Command-line flags from dataclass fields: one declaration, flags, help and parsing.

A field declared with :func:`gomoku_env.fields.option` (its type, default, range and
help) gets a ``--field-name`` flag from :func:`add_flags`: typed, checked against the
field's range so that a bad value names the flag, its help the field's help, grouped
by the field's ``flag`` metadata (``gomoku train``'s groups). :func:`flag_values`
reads the flags back as the dataclass's keyword arguments, and
:func:`parse_dataclass` is the examples' whole command line.

>>> from dataclasses import dataclass
>>> from gomoku_env.fields import option
>>> @dataclass(frozen=True)
... class Search:
...     simulations: int = option(100, help="simulations per move", minimum=1)
>>> parser = argparse.ArgumentParser()
>>> add_flags(parser, Search)
>>> Search(**flag_values(Search, parser.parse_args(["--simulations", "8"])))
Search(simulations=8)
"""

from __future__ import annotations

import argparse
import dataclasses
import typing
from collections.abc import Callable, Iterable
from typing import Any

from gomoku_env.fields import base_type, check_number, convert, field_help

_METAVARS = {int: "N", float: "X", str: "TEXT"}


def add_flags(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    owner: type,
    *,
    only: Iterable[str] | None = None,
    prefix: str = "",
    unset: dict[str, str] | None = None,
    group: str | None = None,
    defaults: Any = None,
) -> None:
    """Add a ``--PREFIX-FIELD-NAME`` flag for each field of the dataclass ``owner``.

    Args:
        parser: the parser or argument group the flags join.
        owner: the dataclass whose fields (type, default, help) the flags mirror.
        only: the fields that get a flag (default: every field of a plain type).
        prefix: put before each flag's name and ``dest`` (``"teacher-"`` makes
            ``--teacher-games`` of the field ``games``).
        unset: fields whose flag defaults to "not given" (None) rather than the
            field's default, with what that means in words, e.g. ``{"min_replay":
            "2000, or 64 for budgets under half an hour"}``; a field declared with
            ``option(..., unset=...)`` is one too.
        group: only the fields declared with ``option(..., flag=group)`` (or a
            ``"flag"`` metadata entry equal to it) get a flag.
        defaults: an instance of ``owner`` whose values are the flags' defaults (a
            preset), instead of the fields' own defaults.
    """
    hints = typing.get_type_hints(owner)
    unset = dict(unset or {})
    chosen = set(only) if only is not None else None
    for item in dataclasses.fields(owner):
        if chosen is not None and item.name not in chosen:
            continue
        if group is not None and item.metadata.get("flag") != group:
            continue
        default = item.default if defaults is None else getattr(defaults, item.name)
        if item.metadata.get("unset"):
            unset[item.name] = f"{default}, {item.metadata['unset']}"
        base, optional = base_type(hints[item.name])
        if base not in (int, float, str, bool):
            if chosen is not None or group is not None:
                raise TypeError(f"{owner.__name__}.{item.name} has no flag type")
            continue
        help_text = field_help(item).replace("%", "%%")
        if item.name in unset:
            default = None
            help_text += f" (unset: {unset[item.name]})"
        name = f"{prefix}{item.name}".replace("_", "-")
        _add_flag(parser, name, item, base, optional, default, help_text)


def _add_flag(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    name: str,
    item: dataclasses.Field,
    base: Any,
    optional: bool,
    default: Any,
    help_text: str,
) -> None:
    """The ``--NAME`` flag of the field ``item`` (``base`` its plain type)."""
    spellings = [
        f"--{name}",
        *(
            alias if alias.startswith("-") else f"--{alias.replace('_', '-')}"
            for alias in item.metadata.get("aliases", ())
        ),
    ]
    options: dict[str, Any] = {"action": argparse.BooleanOptionalAction}
    if base is not bool:
        options = {
            "type": _flag_type(spellings[0], base, optional, item.metadata),
            "metavar": _METAVARS[base],
        }
    parser.add_argument(
        *spellings,
        default=default,
        dest=name.replace("-", "_"),
        help=help_text,
        **options,
    )


def flag_values(
    owner: type, arguments: argparse.Namespace, *, prefix: str = ""
) -> dict[str, Any]:
    """The keyword arguments of ``owner`` that flags made by :func:`add_flags` gave:
    every field whose flag exists and was not left unset."""
    values = {}
    for item in dataclasses.fields(owner):
        dest = f"{prefix}{item.name}".replace("-", "_")
        value = getattr(arguments, dest, None)
        if value is not None:
            values[item.name] = value
    return values


def parse_dataclass(
    owner: type, description: str, args: list[str] | None = None
) -> Any:
    """``owner`` built from a command line of one flag per field (the examples' entry).

    >>> from gomoku_env.fields import option
    >>> @dataclasses.dataclass(frozen=True)
    ... class Args:
    ...     steps: int = option(10, help="env steps")
    >>> parse_dataclass(Args, "a run", ["--steps", "20"])
    Args(steps=20)
    """
    parser = argparse.ArgumentParser(
        description=description,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    add_flags(parser, owner)
    return owner(**flag_values(owner, parser.parse_args(args)))


def _flag_type(
    flag: str, base: Any, optional: bool, metadata: typing.Mapping[str, Any]
) -> Callable[[str], Any]:
    """The argparse ``type`` of a flag: the text converted, then checked against the
    field's bounds, so a bad value names the flag."""
    bounds = metadata.get("bounds")

    def parse(text: str) -> Any:
        try:
            value = convert(flag, text, base | None if optional else base)
            if bounds is not None and value is not None and base in (int, float):
                check_number(flag, value, integer=base is int, **bounds)
        except (TypeError, ValueError) as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        return value

    parse.__name__ = _METAVARS.get(base, "value")
    return parse
