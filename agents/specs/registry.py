"""The agents that specs name: one dict from a spec name to its factory and options.

:func:`register_agent` adds an agent; :mod:`agents.specs.builtin_specs` registers the
built-in ones, and :mod:`agents.specs.parse` (which imports both) reads the entries to
parse specs and build agents. This module imports neither, so imports run one way:
``specs`` → ``builtin_specs`` → ``registry``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.base import Agent
from agents.specs.options import RESERVED, parameters

AgentFactory = Callable[..., Agent]
"""Called as ``factory(config=GameConfig, seed=int | None, **options)``."""


OptionSources = Sequence[Any] | Callable[[], Sequence[Any]]
"""What declares an agent's spec options: callables (their keyword parameters),
dataclasses (their fields) or dataclass instances (their fields, with the instance's
values as defaults: a named preset), or a function returning them (so that a heavy
module is imported only when its options are asked)."""


@dataclass
class Registration:
    """One registered agent: how to build it and which spec options it takes."""

    factory: AgentFactory
    positional: str | None
    sources: OptionSources
    open_options: bool
    """Whether options beyond the declared ones pass through (to a user's factory)."""
    aliases: Mapping[str, str]
    """Older option names and the declared names they stand for."""
    withheld: tuple[str, ...] = ()
    """Parameters of the sources that this agent does not offer as options."""
    _options: dict[str, inspect.Parameter] | None = None

    def source_list(self) -> Sequence[Any]:
        """The declaring sources, importing them now if they were deferred."""
        sources = self.sources
        return sources if isinstance(sources, Sequence) else sources()

    @property
    def options(self) -> dict[str, inspect.Parameter]:
        """The declared options by name, with resolved types and defaults."""
        if self._options is None:
            keep = (self.positional,) if self.positional else ()
            self._options = parameters(
                self.source_list(), reserved=(*RESERVED, *self.withheld), keep=keep
            )
        return self._options


_REGISTRY: dict[str, Registration] = {}


def register_agent(
    name: str,
    factory: AgentFactory,
    positional: str | None = None,
    options: OptionSources | None = None,
    aliases: Mapping[str, str] | None = None,
    withheld: Sequence[str] = (),
) -> None:
    """Make ``name`` usable in specs.

    Args:
        name: the spec name, a word without ``:`` or ``,`` (e.g. ``"mcts"``).
        factory: builds the agent as ``factory(config=..., seed=..., **options)``.
        positional: the option that the first item after the colon gives, verbatim and
            without ``key=`` (``"path"`` for ``"engine:/opt/pbrain,time=1"``).
        options: what declares the spec's options, with their types and defaults
            (see :data:`OptionSources`); default: the factory's own parameters.
            The first that names a parameter types it; a parameter without a default
            (filled by the factory) is no option, except ``positional``. A function
            that returns the callables defers importing them. When the factory takes
            ``**options`` and this is not given, further options pass through as
            written (typed int, float, bool or text by their look).
        aliases: older option names still accepted, each mapped to the declared
            option it stands for (``{"c": "exploration"}``); giving both is refused.
        withheld: parameters of ``options`` that are no option of this agent (a
            budget field it does not count, a setting its evaluator ignores): neither
            listed nor accepted.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"an agent name must be a word like 'mcts', got {name!r}")
    if not callable(factory):
        raise TypeError(
            f"the factory for agent {name!r} must be callable, got {factory!r}"
        )
    open_options = options is None and any(
        parameter.kind is parameter.VAR_KEYWORD
        for parameter in inspect.signature(factory).parameters.values()
    )
    sources = options if options is not None else (factory,)
    _REGISTRY[name] = Registration(
        factory, positional, sources, open_options, dict(aliases or {}), tuple(withheld)
    )


def registered_names() -> list[str]:
    """The agent names that specs accept, sorted."""
    return sorted(_REGISTRY)


def find_registration(name: str) -> Registration | None:
    """The registration of agent ``name``; None when no agent has that name."""
    return _REGISTRY.get(name)
