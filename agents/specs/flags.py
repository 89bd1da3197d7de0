"""Command-line flags from dataclass fields, so that a setting is declared only once.

A field declared with :func:`gomoku_env.fields.option` gets a typed ``--field-name``
flag with its help, checked against its range so that a bad value names the flag.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import typing
from typing import Any

from gomoku_env.fields import base_type, check_number, convert

_METAVARS = {int: "N", float: "X", str: "TEXT"}
_UNDECLARED = {"help": "", "flag": None, "unset": None, "aliases": (), "bounds": {}}
"""The metadata of a field that :func:`gomoku_env.fields.option` did not declare."""


def add_flags(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    owner: type,
    *,
    group: str | None = None,
    prefix: str = "",
    defaults: Any = None,
) -> None:
    """A ``--PREFIX-FIELD-NAME`` flag for each int, float, str or bool field of the
    dataclass ``owner`` (with ``group``: declared ``option(..., flag=group)``), its
    default from the preset ``defaults`` when given; one declared with ``unset``
    defaults to None, its help saying what then happens."""
    hints = typing.get_type_hints(owner)
    for item in dataclasses.fields(owner):
        metadata = _UNDECLARED | dict(item.metadata)
        base, _ = base_type(hints[item.name])
        if base not in (*_METAVARS, bool) or group not in (None, metadata["flag"]):
            continue
        default = item.default if defaults is None else getattr(defaults, item.name)
        help_text = metadata["help"].replace("%", "%%")
        if metadata["unset"]:
            help_text += f" (unset: {default}, {metadata['unset']})"
            default = None
        name = "--" + f"{prefix}{item.name}".replace("_", "-")
        aliases = [a if a.startswith("-") else f"--{a}" for a in metadata["aliases"]]
        typed: dict[str, Any] = {"action": argparse.BooleanOptionalAction}
        if base is not bool:
            bounds = metadata["bounds"]
            parse = functools.partial(_parse_flag, name, hints[item.name], bounds)
            typed = {"type": parse, "metavar": _METAVARS[base]}
        parser.add_argument(name, *aliases, default=default, help=help_text, **typed)


def flag_values(
    owner: type, arguments: argparse.Namespace, *, prefix: str = ""
) -> dict[str, Any]:
    """The keyword arguments of ``owner`` that flags made by :func:`add_flags` gave:
    every field whose flag exists and was not left unset."""
    names = [item.name for item in dataclasses.fields(owner)]
    values = {name: getattr(arguments, prefix + name, None) for name in names}
    return {name: value for name, value in values.items() if value is not None}


def parse_dataclass(
    owner: type, description: str, args: list[str] | None = None
) -> Any:
    """``owner`` built from a command line of one flag per field (the examples')."""
    formatter = argparse.ArgumentDefaultsHelpFormatter
    parser = argparse.ArgumentParser(description=description, formatter_class=formatter)
    add_flags(parser, owner)
    return owner(**flag_values(owner, parser.parse_args(args)))


def _parse_flag(flag: str, annotation: Any, bounds: dict[str, Any], text: str) -> Any:
    """The value of ``flag`` in ``text``, typed by ``annotation`` and checked against
    ``bounds``, so that a bad value names the flag."""
    try:
        value = convert(flag, text, annotation)
        if isinstance(value, (int, float)):
            check_number(flag, value, integer=isinstance(value, int), **bounds)
    except (TypeError, ValueError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return value
