"""Agent specs: one text syntax to name an agent everywhere (CLI, arena, gym opponent).

A spec is ``NAME[:OPTIONS]``: a registered agent name, then ``key=value`` options
separated by commas: ``"random"``, ``"mcts:simulations=1000,c=1.4"``,
``"alphazero:weights=9x9,simulations=200"``. Each option is typed by the parameter
that declares it in the agent's factory (int, float, bool, text, or ``none`` where None
is allowed), older names (``c`` for ``exploration``) are renamed to the declared ones,
and :func:`check_spec` refuses what the agent does not declare, naming the nearest
option; ``gomoku agents`` lists every agent's options.

An agent registered with a ``positional`` option takes the first item after the colon
as that option's value, verbatim (it may hold ``:``, ``/`` or ``=``, not ``,``):
``"engine:/path/to/pbrain,time=1"`` passes ``path="/path/to/pbrain"``, and
``"python:my_module:make_agent,depth=3"`` passes ``target="my_module:make_agent"``
(your own agent, see :mod:`agents.python_agent`).

Importing this module registers the built-in agents (``random``, ``python``, ``mcts``,
``engine``, ``heuristic``, ``alphabeta``, ``alphazero``, ``ppo``: see
:mod:`agents.builtin_specs`); other code may add its own with :func:`register_agent`.
:func:`make_agent` builds the agent for a given game.

>>> parse_spec("mcts:simulations=1000,c=1.4")
('mcts', {'simulations': 1000, 'exploration': 1.4})
>>> parse_spec("python:my_module:make_agent,depth=3")
('python', {'target': 'my_module:make_agent', 'depth': 3})
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.base import Agent, AgentFailedError
from agents.options import (
    RESERVED,
    convert,
    declared_parameters,
    parameter_docs,
    parameters,
    quoted,
    type_name,
)
from gomoku_env.config import GameConfig

AgentFactory = Callable[..., Agent]
"""Called as ``factory(config=GameConfig, seed=int | None, **options)``."""


OptionSources = Sequence[Any] | Callable[[], Sequence[Any]]
"""What declares an agent's spec options: callables (their keyword parameters),
dataclasses (their fields) or dataclass instances (their fields, with the instance's
values as defaults: a named preset), or a function returning them (so that a heavy
module is imported only when its options are asked)."""


@dataclass
class _Registration:
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

    @property
    def options(self) -> dict[str, inspect.Parameter]:
        """The declared options by name, with resolved types and defaults."""
        if self._options is None:
            sources = self.sources
            if not isinstance(sources, Sequence):
                sources = sources()
            keep = (self.positional,) if self.positional else ()
            self._options = parameters(
                sources, reserved=(*RESERVED, *self.withheld), keep=keep
            )
        return self._options


_REGISTRY: dict[str, _Registration] = {}


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
    _REGISTRY[name] = _Registration(
        factory, positional, sources, open_options, dict(aliases or {}), tuple(withheld)
    )


def registered_names() -> list[str]:
    """The agent names that specs accept, sorted."""
    return sorted(_REGISTRY)


def usage(name: str) -> str:
    """The spec syntax of agent ``name``, from its options' signatures:
    ``"mcts[:simulations=int,time=number or none,...]"``."""
    registration = _REGISTRY[name]
    head = (
        f"{name}:{registration.positional.upper()}" if registration.positional else name
    )
    try:
        declared = registration.options
    except ImportError:  # declared in a module that needs an extra not installed here
        return f"{name}[:key=value,...]"
    items = [
        "|".join(
            [
                option,
                *(old for old, new in registration.aliases.items() if new == option),
            ]
        )
        + f"={type_name(parameter.annotation)}"
        for option, parameter in declared.items()
        if option != registration.positional
    ]
    if registration.open_options:
        items.append("key=value,...")
    if not items:
        return head
    joiner = "," if registration.positional else ":"
    return f"{head}[{joiner}{','.join(items)}]"


@dataclass(frozen=True)
class OptionHelp:
    """One option of an agent spec, as ``gomoku agents`` lists it."""

    name: str
    aliases: tuple[str, ...]
    type: str
    default: str
    meaning: str


def option_help(name: str) -> list[OptionHelp]:
    """Every option of agent ``name``: its type and default from the signature that
    declares it, its meaning from that callable's docstring.

    Raises:
        KeyError: no agent of that name; ImportError: its options need an extra.
    """
    registration = _REGISTRY[name]
    sources = registration.sources
    if not isinstance(sources, Sequence):
        sources = sources()
    meanings: dict[str, str] = {}
    for source in sources:  # the meaning from the callable that declares the option
        docs = parameter_docs(source)
        for parameter in declared_parameters(source):
            meanings.setdefault(parameter.name, docs.get(parameter.name, ""))
    return [
        OptionHelp(
            option,
            tuple(old for old, new in registration.aliases.items() if new == option),
            type_name(parameter.annotation),
            "required" if parameter.default in (parameter.empty, "")
            else "none" if parameter.default is None
            else str(parameter.default).lower() if isinstance(parameter.default, bool)
            else str(parameter.default),
            meanings.get(option, ""),
        )
        for option, parameter in registration.options.items()
    ]  # fmt: skip


def accepted_specs() -> str:
    """The accepted names, and where their options are listed, for error texts."""
    return (
        f"accepted names: {', '.join(registered_names())} "
        "('gomoku agents' lists each one's options)"
    )


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"NAME:key=value,..."`` into the name and its options, each typed by the
    registered agent's signature (an option it does not declare: by its look).

    Raises:
        ValueError: an empty spec, an option that is not ``key=value``, an option
            given twice, or a value that is not of its option's type.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(
            f"an agent spec must be a non-empty string, got {quoted(str(spec))}"
        )
    name, _, option_text = spec.strip().partition(":")
    name = name.strip()
    items = [part.strip() for part in option_text.split(",")]
    options: dict[str, Any] = {}
    registration = _REGISTRY.get(name)
    try:
        declared = registration.options if registration else {}
    except ImportError as error:  # its options live in a module that needs an extra
        raise ValueError(f"agent spec {spec!r}: {error}") from None
    aliases = registration.aliases if registration else {}
    positional = registration.positional if registration else None
    if positional is not None and items[0]:
        options[positional] = items.pop(0).removeprefix(f"{positional}=")
    for item in filter(None, items):
        written, equals, value = item.partition("=")
        written = written.strip()
        if not equals or not written.isidentifier():
            raise ValueError(
                f"bad option {item!r} in agent spec {spec!r}: expected key=value"
            )
        key = aliases.get(written, written)
        if key in options:
            raise ValueError(
                f"option {key!r} given twice in agent spec {spec!r}"
                + (f" ({written!r} is its older name)" if key != written else "")
            )
        if key in declared:
            options[key] = convert(key, value.strip(), declared[key].annotation)
        else:
            options[key] = _guess_value(value.strip())
    return name, options


def check_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The name and typed options of ``spec``, after checking everything that can be
    checked without building the agent: the syntax, the name, each option's name and
    type. The one spec check of the CLI, the web page and the brain.

    Raises:
        ValueError: saying what is wrong in the spec's own terms, with the nearest
            name ("did you mean") and the options the agent accepts.
    """
    name, options = parse_spec(spec)
    registration = _REGISTRY.get(name)
    if registration is None:
        raise ValueError(
            f"unknown agent {quoted(name)} in spec {quoted(spec)}{_nearest(name, _REGISTRY)}; "
            f"{accepted_specs()}"
        )
    for key in options:
        if key in RESERVED:
            raise ValueError(
                f"{quoted(key)} is not an option of agent {name!r} in spec {quoted(spec)}: the "
                f"program that runs the agent sets its {key} (e.g. the arena's --seed)"
            )
        if key not in registration.options and not registration.open_options:
            raise ValueError(
                f"unknown option {quoted(key)} for agent {name!r} in spec {quoted(spec)}"
                f"{_nearest(key, registration.options)}; expected {usage(name)}"
            )
    return name, options


def make_agent(
    spec: str, config: GameConfig | None = None, seed: int | None = None
) -> Agent:
    """Build the agent named by ``spec`` for games of ``config``, seeded with ``seed``.

    Raises:
        ValueError: the spec is malformed, names no registered agent, its options
            do not suit the agent (the message lists what is accepted), or the
            agent's factory failed.
    """
    name, options = check_spec(spec)
    registration = _REGISTRY[name]
    try:
        agent = registration.factory(
            config=config or GameConfig(), seed=seed, **options
        )
    except TypeError as error:
        raise ValueError(
            f"bad options for agent {name!r} in spec {quoted(spec)}: {error}; "
            f"expected {usage(name)}"
        ) from None
    except (ValueError, FileNotFoundError, AgentFailedError):
        raise
    except Exception as error:  # a factory's own failure, told as the spec's error
        raise ValueError(
            f"agent spec {spec!r} failed to build: {type(error).__name__}: {error}"
        ) from error
    if not isinstance(agent, Agent):
        raise TypeError(
            f"agent spec {spec!r} built {agent!r}, which is not an Agent "
            "(it needs act(observation) and reset(seed=None))"
        )
    return agent


def _guess_value(text: str) -> Any:
    """An undeclared option's value (for a user's own factory) typed by its look."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return text


def _nearest(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'mcts'?)"`` when a choice is close to ``word``, else ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


# The built-in agents register themselves on import (below everything they use).
import agents.builtin_specs  # noqa: E402, F401
