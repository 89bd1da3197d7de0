"""Typed options from one source: a dataclass field or a keyword parameter.

A setting is declared once, where it is used: a field of a frozen config dataclass (its
type, its default, its range with :func:`bounded`, and its meaning in the docstring
under it), or a keyword parameter of an agent factory (its type and default). From that
one declaration:

* :func:`check_fields` validates a config (call it from ``__post_init__``), with the
  package's one number check, :func:`gomoku_env.errors.check_number`;
* :mod:`agents.specs.flags` makes the command-line flags of ``gomoku train`` and the
  examples from the fields (``--field-name``, typed, help from the docstring);
* :func:`parameters` and :func:`convert` type the ``key=value`` text of agent specs
  from the factory's signature, so ``weights=15`` stays the text ``"15"`` for a
  parameter typed ``str``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Search:
...     simulations: int = bounded(100, minimum=1)
...     '''simulations per move'''
...     def __post_init__(self) -> None:
...         check_fields(self)
>>> Search(simulations=0)
Traceback (most recent call last):
...
ValueError: Search.simulations must be an int >= 1, got 0
>>> convert("simulations", "8", int), convert("weights", "15", str | None)
(8, '15')
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import textwrap
import types
import typing
from collections.abc import Callable, Collection, Iterable
from typing import Any

from gomoku_env.errors import check_number

QUOTE_LIMIT = 240
"""Characters of a user's text that an error message quotes."""


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, cut to ``limit`` characters with a note of the rest: an error
    names a bad value without echoing 10 KB of it."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text) - limit} more characters)"


RESERVED = ("self", "config", "seed")
"""Parameters of an agent factory that the caller fills in, never a spec option."""


def bounded(
    default: Any,
    *,
    minimum: float | None = None,
    above: float | None = None,
    maximum: float | None = None,
    aliases: tuple[str, ...] = (),
    flag: str | None = None,
    unset: str | None = None,
) -> Any:
    """A dataclass field with a default, the range that :func:`check_fields` enforces,
    and older flag spellings (``aliases``, e.g. ``("--replay",)``) that still work.

    ``flag`` names the group of a command's flags that this field's flag joins
    (``agents.specs.flags.add_flags(..., group=flag)`` picks the fields by it);
    ``unset`` makes that flag default to "not given", saying in words what then happens
    after the default (``unset="fewer for short budgets"`` shows "(unset: 64, fewer for
    short budgets)")."""
    bounds = {"minimum": minimum, "above": above, "maximum": maximum}
    metadata = {"bounds": bounds, "aliases": aliases, "flag": flag, "unset": unset}
    return dataclasses.field(default=default, metadata=metadata)


def check_fields(instance: Any) -> None:
    """Check every :func:`bounded` field of a dataclass ``instance`` against its range.

    Raises:
        TypeError, ValueError: naming the class, the field and the bad value.
    """
    owner = type(instance)
    hints = typing.get_type_hints(owner)
    for item in dataclasses.fields(owner):
        bounds = item.metadata.get("bounds")
        if bounds is None:
            continue
        value = getattr(instance, item.name)
        base, optional = base_type(hints[item.name])
        if value is None and optional:
            continue
        check_number(
            f"{owner.__name__}.{item.name}", value, integer=base is int, **bounds
        )


def field_docs(owner: type) -> dict[str, str]:
    """The docstring written under each field of the dataclass ``owner``, by name
    (the CleanRL / tyro convention), read from its source; its bases' too."""
    docs: dict[str, str] = {}
    for cls in reversed(owner.__mro__[:-1]):
        try:
            source = textwrap.dedent(inspect.getsource(cls))
        except (OSError, TypeError):  # no source (a class made at run time)
            continue
        body = ast.parse(source).body[0]
        if not isinstance(body, ast.ClassDef):
            continue
        for statement, after in itertools.pairwise(body.body):
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                docs[statement.target.id] = " ".join(after.value.value.split())
    return docs


def parameter_docs(function: Callable[..., Any]) -> dict[str, str]:
    """What each parameter of ``function`` means: the docstring under each field of a
    dataclass (or of a dataclass instance's class), else the Google-style ``Args:``
    section of its docstring (a class's own docstring for a class), one line per
    parameter."""
    if dataclasses.is_dataclass(function):
        owner = function if inspect.isclass(function) else type(function)
        docs = field_docs(owner)
        if docs:
            return docs
    text = inspect.getdoc(function) or ""
    _, found, section = text.partition("\nArgs:\n")
    if not found:
        return {}
    docs: dict[str, str] = {}
    name = None
    for line in section.splitlines():
        if not line.strip():
            break
        if not line.startswith("    "):
            break
        entry = line[4:]
        key, colon, rest = entry.partition(":")
        if not entry.startswith(" ") and colon and key.replace("*", "").isidentifier():
            name = key.replace("*", "")
            docs[name] = rest.strip()
        elif name is not None:
            docs[name] += " " + entry.strip()
    return docs


def parameters(
    callables: Iterable[Callable[..., Any]],
    reserved: Collection[str] = RESERVED,
    keep: Collection[str] = (),
) -> dict[str, inspect.Parameter]:
    """The keyword parameters that ``callables`` accept together, by name, each with
    its annotation resolved; the first callable that names one wins. A dataclass
    counts by its fields (its ``__init__``), a dataclass instance by its fields with
    its values as defaults. Parameters without a default are left out (the caller
    fills them), except those named in ``keep``, and so are those that take an object
    (a dataclass or a protocol)."""
    found: dict[str, inspect.Parameter] = {}
    for function in callables:
        for parameter in declared_parameters(function):
            if parameter.name in reserved or parameter.name in found:
                continue
            if parameter.kind in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL):
                continue
            if parameter.default is parameter.empty and parameter.name not in keep:
                continue
            if _is_object(parameter.annotation):
                continue
            found[parameter.name] = parameter
    return found


def declared_parameters(source: Callable[..., Any] | Any) -> list[inspect.Parameter]:
    """The keyword parameters of ``source`` with resolved annotations: a callable's,
    a dataclass's fields, or a dataclass instance's fields with its values as the
    defaults (an agent's named preset of shared options)."""
    if dataclasses.is_dataclass(source) and not inspect.isclass(source):
        hints = typing.get_type_hints(type(source))
        return [
            inspect.Parameter(
                item.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=getattr(source, item.name),
                annotation=hints[item.name],
            )
            for item in dataclasses.fields(source)
        ]
    target = source.__init__ if inspect.isclass(source) else source
    hints = typing.get_type_hints(target)
    return [
        parameter.replace(annotation=hints.get(parameter.name, str))
        for parameter in inspect.signature(source).parameters.values()
    ]


def _is_object(annotation: Any) -> bool:
    """Whether a parameter takes an object that spec text cannot write (a dataclass
    such as a budget, or a protocol such as an evaluator)."""
    base, _ = base_type(annotation)
    return inspect.isclass(base) and (
        dataclasses.is_dataclass(base) or getattr(base, "_is_protocol", False)
    )


def convert(name: str, text: str, annotation: Any) -> Any:
    """The spec text ``text`` of option ``name`` as the type ``annotation`` says.

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
    for wanted in (int, float):
        if base is wanted or (base is _INT_OR_FLOAT and wanted is float):
            try:
                return int(text) if wanted is int and base is int else _number(text)
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
