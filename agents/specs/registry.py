"""The agents that specs name: one dict from a spec name to its factory and options.

:func:`register_agent` adds an agent; :mod:`agents.specs.builtin_specs` registers the
built-in ones, and :mod:`agents.specs.parse` (which imports both) reads the entries to
parse specs and build agents. This module imports neither, so imports run one way:
``specs`` → ``builtin_specs`` → ``registry``.

An agent's spec options are the fields of the dataclasses that declare them (types,
defaults and help from :func:`gomoku_env.fields.option`); a dataclass instance gives
its values as the defaults (a named preset). A factory registered without them offers
its own keyword parameters (a user's agent: typed, but without help).
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.base import Agent
from agents.search.settings import SearchOptions
from gomoku_env.fields import base_type, field_help

AgentFactory = Callable[..., Agent]
"""Called as ``factory(config=GameConfig, seed=int | None, **options)``."""

RESERVED = ("self", "config", "seed", "search", "build")
"""Parameters of an agent factory that the caller fills in, never a spec option."""


@dataclass(frozen=True)
class SpecOption:
    """One option of an agent spec: its type, default and help."""

    name: str
    annotation: Any
    default: Any
    help: str
    required: bool = False


@dataclass
class Registration:
    """One registered agent: how to build it and which spec options it takes."""

    factory: AgentFactory
    positional: str | None
    options: dict[str, SpecOption]
    open_options: bool
    """Whether options beyond the declared ones pass through (to a user's factory)."""
    aliases: Mapping[str, str]
    """Older option names and the declared names they stand for."""
    search: SearchOptions | None = None
    """The preset that the search options given replace fields of; the factory gets
    the result as ``search=`` (one object, checked once, for the tree)."""
    builds_agents: bool = False
    """Whether the factory takes ``build``: the spec parser's ``make_agent``, to make
    the agents it is made of from their specs (the curriculum's anchors)."""


_REGISTRY: dict[str, Registration] = {}


def register_agent(
    name: str,
    factory: AgentFactory,
    positional: str | None = None,
    options: Sequence[Any] | None = None,
    aliases: Mapping[str, str] | None = None,
    search: SearchOptions | None = None,
    withheld: Sequence[str] = (),
    open_options: bool | None = None,
) -> None:
    """Make ``name`` usable in specs.

    Args:
        name: the spec name, a word without ``:`` or ``,`` (e.g. ``"mcts"``).
        factory: builds the agent as ``factory(config=..., seed=..., **options)``.
        positional: the option that the first item after the colon gives, verbatim and
            without ``key=`` (``"path"`` for ``"engine:/opt/pbrain,time=1"``).
        options: the dataclasses (or preset instances) whose fields are the spec's
            options; the first that names one declares it. Default: the factory's
            own keyword parameters, and when it takes ``**options`` further options
            pass through as written (typed int, float, bool or text by their look).
        aliases: older option names still accepted, each mapped to the declared
            option it stands for (``{"c": "exploration"}``); giving both is refused.
        search: a :class:`~agents.search.SearchOptions` preset: its fields are options
            too, and the factory gets ``search=`` the preset with those given.
        withheld: fields of ``options`` or ``search`` that are no option of this agent
            (a budget limit it does not count): neither listed nor accepted.
        open_options: whether options beyond the declared ones pass through to the
            factory (default: when it takes ``**options`` and ``options`` is None).
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"an agent name must be a word like 'mcts', got {name!r}")
    if not callable(factory):
        raise TypeError(
            f"the factory for agent {name!r} must be callable, got {factory!r}"
        )
    if open_options is None:
        open_options = options is None and any(
            parameter.kind is parameter.VAR_KEYWORD
            for parameter in inspect.signature(factory).parameters.values()
        )
    declared: dict[str, SpecOption] = {}
    sources = [*(options or ()), *([search] if search is not None else [])]
    found = [*_from_dataclasses(sources)] if options is not None else []
    found += _from_signature(factory, positional) if options is None else []
    for option in found:
        if option.name not in withheld and option.name not in RESERVED:
            declared.setdefault(option.name, option)
    builds_agents = "build" in inspect.signature(factory).parameters
    _REGISTRY[name] = Registration(
        factory,
        positional,
        declared,
        open_options,
        dict(aliases or {}),
        search,
        builds_agents,
    )


def _from_dataclasses(sources: Sequence[Any]) -> list[SpecOption]:
    """The options that the fields of ``sources`` declare (an instance's values as
    the defaults)."""
    found = []
    for source in sources:
        owner = source if inspect.isclass(source) else type(source)
        hints = typing.get_type_hints(owner)
        for item in dataclasses.fields(owner):
            default = (
                item.default if inspect.isclass(source) else getattr(source, item.name)
            )
            required = default is dataclasses.MISSING
            found.append(
                SpecOption(
                    item.name, hints[item.name], default, field_help(item), required
                )
            )
    return found


def _from_signature(factory: AgentFactory, positional: str | None) -> list[SpecOption]:
    """A user factory's keyword parameters with a default (and ``positional``) as
    options, typed by their annotations; those that take an object are left out."""
    target = factory.__init__ if inspect.isclass(factory) else factory
    hints = typing.get_type_hints(target)
    found = []
    for parameter in inspect.signature(factory).parameters.values():
        required = parameter.default is parameter.empty
        if parameter.kind in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL):
            continue
        if required and parameter.name != positional:
            continue
        annotation = hints.get(parameter.name, str)
        base, _ = base_type(annotation)
        if inspect.isclass(base) and (
            dataclasses.is_dataclass(base) or getattr(base, "_is_protocol", False)
        ):
            continue
        default = None if required else parameter.default
        found.append(SpecOption(parameter.name, annotation, default, "", required))
    return found


def registered_names() -> list[str]:
    """The agent names that specs accept, sorted."""
    return sorted(_REGISTRY)


def find_registration(name: str) -> Registration | None:
    """The registration of agent ``name``; None when no agent has that name."""
    return _REGISTRY.get(name)
