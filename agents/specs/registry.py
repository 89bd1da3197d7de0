"""The agents that specs name: a dict from a spec name to its factory and options.

An agent's options are the fields of the dataclasses that declare them (a preset
instance gives its values as the defaults). This module imports neither
:mod:`agents.specs.builtin_specs` nor :mod:`agents.specs.parse`, which import it.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from agents.base import Agent
from agents.search.settings import SearchOptions

RESERVED = ("self", "config", "seed", "search", "build")
"""Parameters of an agent factory that the caller fills in, never a spec option."""


class SpecOption(NamedTuple):
    """An agent's spec option: its field, resolved type and default (MISSING: none)."""

    field: dataclasses.Field
    annotation: Any
    default: Any


@dataclass(frozen=True)
class Registration:
    """One registered agent: how to build it and which spec options it takes."""

    factory: Callable[..., Agent]
    positional: str | None
    options: dict[str, SpecOption]
    open_options: bool
    """Whether options beyond the declared ones pass through to the factory."""
    search: SearchOptions | None
    """The preset whose fields the search options given replace (the ``search=``)."""


AGENTS: dict[str, Registration] = {}
"""Every registered agent by its spec name."""


def register_agent(
    name: str,
    factory: Callable[..., Agent],
    positional: str | None = None,
    options: Sequence[Any] = (),
    search: SearchOptions | None = None,
    withheld: Sequence[str] = (),
    open_options: bool | None = None,
) -> None:
    """Make ``name`` usable in specs, built by ``factory(config=, seed=, **options)``.

    Its options are the fields of ``options`` (dataclasses or presets; the first that
    names one declares it) and of the ``search`` preset (handed over as ``search=``),
    less those ``withheld``; ``positional`` is the one given first, verbatim
    (``engine:PATH``). ``open_options`` passes undeclared ones on (by default when
    none are declared and the factory takes more than ``config`` and ``seed``)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"an agent name must be a word like 'mcts', got {name!r}")
    parameters = inspect.signature(factory).parameters
    sources = [*options, *([search] if search is not None else [])]
    if open_options is None:
        open_options = not sources and any(p not in RESERVED for p in parameters)
    declared: dict[str, SpecOption] = {}
    for source in sources:
        owner = source if inspect.isclass(source) else type(source)
        hints = typing.get_type_hints(owner)
        for item in dataclasses.fields(owner):
            default = item.default if source is owner else getattr(source, item.name)
            if item.name not in withheld:
                option = SpecOption(item, hints[item.name], default)
                declared.setdefault(item.name, option)
    AGENTS[name] = Registration(factory, positional, declared, open_options, search)


def registered_names() -> list[str]:
    """The agent names that specs accept, sorted."""
    return sorted(AGENTS)
