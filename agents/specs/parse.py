"""Agent specs: one text syntax to name an agent everywhere (CLI, arena, gym opponent).

A spec is ``NAME[:OPTIONS]``: a registered agent name, then ``key=value`` options
separated by commas: ``"random"``, ``"mcts:simulations=1000,c=1.4"``,
``"alphazero:weights=9x9,simulations=200"``. Each option is typed by the dataclass
field that declares it (int, float, bool, text, or ``none`` where None is allowed),
older names (``c`` for ``exploration``) are renamed to the declared ones, and
:func:`check_spec` refuses what the agent does not declare, naming the nearest
option; ``gomoku agents`` lists every agent's options.

An agent registered with a ``positional`` option takes the first item after the colon
as that option's value, verbatim (it may hold ``:``, ``/`` or ``=``, not ``,``):
``"engine:/path/to/pbrain,time=1"`` passes ``path="/path/to/pbrain"``, and
``"python:my_module:make_agent,depth=3"`` passes ``target="my_module:make_agent"``
(your own agent, see :mod:`agents.specs.python_agent`).

Importing this module registers the built-in agents (``random``, ``python``, ``mcts``,
``engine``, ``heuristic``, ``alphabeta``, ``alphazero``, ``ppo``, ``curriculum``: see
:mod:`agents.specs.builtin_specs`); other code may add its own with
:func:`register_agent` (from :mod:`agents.specs.registry`, which holds the agents by
name). :func:`make_agent` builds the agent for a given game.

>>> parse_spec("mcts:simulations=1000,c=1.4")
('mcts', {'simulations': 1000, 'exploration': 1.4})
>>> parse_spec("python:my_module:make_agent,depth=3")
('python', {'target': 'my_module:make_agent', 'depth': 3})
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import agents.specs.builtin_specs  # noqa: F401  (registers the built-in agents)
from agents.base import Agent, AgentFailedError
from agents.search import SearchOptions
from agents.specs.registry import (
    RESERVED,
    Registration,
    SpecOption,
    find_registration,
    register_agent,
    registered_names,
)
from gomoku_env.config import GameConfig
from gomoku_env.fields import convert, quoted, type_name

__all__ = [
    "OptionHelp",
    "accepted_specs",
    "check_spec",
    "make_agent",
    "option_help",
    "parse_spec",
    "register_agent",
    "registered_names",
    "usage",
]


def usage(name: str) -> str:
    """The spec syntax of agent ``name``, from its options' signatures:
    ``"mcts[:simulations=int,time=number or none,...]"``."""
    registration = _known(name)
    head = (
        f"{name}:{registration.positional.upper()}" if registration.positional else name
    )
    declared = registration.options
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
    """Every option of agent ``name``: its type, default and help, from the field
    that declares it.

    Raises:
        KeyError: no agent of that name.
    """
    registration = _known(name)
    return [
        OptionHelp(
            option,
            tuple(old for old, new in registration.aliases.items() if new == option),
            *_type_and_default(declared, option == registration.positional),
            declared.help,
        )
        for option, declared in registration.options.items()
    ]


def _type_and_default(option: SpecOption, positional: bool) -> tuple[str, str]:
    """An option's type and default as ``gomoku agents`` shows them; the positional
    option (the syntax's TARGET or PATH) is always given, so it is required text."""
    kind = type_name(option.annotation)
    if positional:
        return kind.removesuffix(" or none"), "required"
    default = option.default
    if option.required or default == "":
        return kind, "required"
    if default is None:
        return kind, "none"
    return kind, str(default).lower() if isinstance(default, bool) else str(default)


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
    registration = find_registration(name)
    declared = registration.options if registration else {}
    aliases = registration.aliases if registration else {}
    positional = registration.positional if registration else None
    if positional is not None and items[0]:
        options[positional] = items.pop(0).removeprefix(f"{positional}=")
    for item in filter(None, items):
        written, equals, value = item.partition("=")
        written = written.strip()
        if not equals or not written.isidentifier():
            raise ValueError(
                f"bad option {quoted(item)} in agent spec {quoted(spec)}: "
                "expected key=value"
            )
        key = aliases.get(written, written)
        if key in options:
            raise ValueError(
                f"option {quoted(key)} given twice in agent spec {quoted(spec)}"
                + (f" ({quoted(written)} is its older name)" if key != written else "")
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
    registration = find_registration(name)
    if registration is None:
        nearest = _nearest(name, registered_names())
        raise ValueError(
            f"unknown agent {quoted(name)} in spec {quoted(spec)}{nearest}; "
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
    registration = _known(name)
    if registration.search is not None:
        search = {key: options.pop(key) for key in _SEARCH_FIELDS if key in options}
        options["search"] = dataclasses.replace(registration.search, **search)
    if registration.builds_agents:
        options["build"] = make_agent
    try:
        agent = registration.factory(
            config=config or GameConfig(), seed=seed, **options
        )
    except TypeError as error:
        raise ValueError(
            f"bad options for agent {name!r} in spec {quoted(spec)}: {error}; "
            f"expected {usage(name)}"
        ) from None
    except (ValueError, FileNotFoundError, AgentFailedError) as error:
        if len(str(error)) <= MESSAGE_LIMIT:
            raise
        raise _shortened(error) from error
    except Exception as error:  # a factory's own failure, told as the spec's error
        raise ValueError(
            f"agent spec {quoted(spec)} failed to build: {type(error).__name__}: "
            f"{_cut(str(error))}"
        ) from error
    if not isinstance(agent, Agent):
        raise TypeError(
            f"agent spec {quoted(spec)} built {_cut(repr(agent))}, which is not an Agent "
            "(it needs act(observation) and reset(seed=None))"
        )
    return agent


_SEARCH_FIELDS = tuple(item.name for item in dataclasses.fields(SearchOptions))
"""The options that a tree search's spec gives as one ``search=`` object."""

MESSAGE_LIMIT = 600
"""Characters of an agent factory's error message shown; a longer one (which may
echo a long option value) is cut, with a note of how much was left out."""


def _cut(message: str) -> str:
    """``message``, cut to :data:`MESSAGE_LIMIT` characters with a note of the rest."""
    if len(message) <= MESSAGE_LIMIT:
        return message
    return (
        f"{message[:MESSAGE_LIMIT]}... ({len(message) - MESSAGE_LIMIT} more characters)"
    )


def _shortened(error: Exception) -> Exception:
    """An error of the same kind as ``error`` whose message is cut (see :func:`_cut`)."""
    try:
        return type(error)(_cut(str(error)))
    except Exception:  # a kind that takes other arguments
        return ValueError(_cut(str(error)))


def _known(name: str) -> Registration:
    """The registration of ``name``, which the caller knows to be registered."""
    registration = find_registration(name)
    if registration is None:
        raise KeyError(f"no agent is registered as {name!r}")
    return registration


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
