"""Agent specs: one text syntax to name an agent everywhere (CLI, arena, gym opponent).

A spec is ``NAME[:key=value,...]``, each option typed by the field that declares it
and an older name (``c``) renamed to the declared one; a ``positional`` option is the
first item after the colon, verbatim (``engine:/path/to/pbrain,time=1``). Importing
this module registers the built-in agents (:mod:`agents.specs.builtin_specs`).

>>> parse_spec("mcts:simulations=1000,c=1.4")
('mcts', {'simulations': 1000, 'exploration': 1.4})
>>> parse_spec("python:my_module:make_agent,depth=3")
('python', {'target': 'my_module:make_agent', 'depth': 3})
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import inspect
from collections.abc import Iterable
from typing import Any, NamedTuple

import agents.specs.builtin_specs  # noqa: F401  (registers the built-in agents)
from agents.base import Agent, AgentFailedError
from agents.specs import registry
from agents.specs.registry import RESERVED, registered_names
from gomoku_env.config import GameConfig
from gomoku_env.fields import base_type, convert, quoted

MESSAGE_LIMIT = 600
"""Characters of an agent factory's error message shown (it may echo a long value)."""


class OptionHelp(NamedTuple):
    """One option of an agent spec, as ``gomoku agents`` lists it."""

    name: str
    aliases: tuple[str, ...]
    type: str
    default: str
    meaning: str


def option_help(name: str) -> list[OptionHelp]:
    """Every option of agent ``name`` with its type, default and help, from the field
    that declares it (a KeyError when no agent has that name)."""
    registration = registry.AGENTS[name]
    listed = []
    for key, declared in registration.options.items():
        default, metadata = declared.default, declared.field.metadata
        shown = "required" if default is dataclasses.MISSING else str(default)
        if default is None or isinstance(default, bool):
            shown = shown.lower()
        base, optional = base_type(declared.annotation)
        kind = {int: "int", float: "number", bool: "bool"}.get(base, "text")
        kind += " or none" if optional else ""
        aliases, meaning = metadata["aliases"], metadata["help"]
        listed.append(OptionHelp(key, aliases, kind, shown, meaning))
    return listed


def usage(name: str) -> str:
    """The spec syntax of agent ``name``: ``"mcts[:simulations=int,...]"``."""
    registration = registry.AGENTS[name]
    positional = registration.positional
    items = [
        "|".join((option.name, *option.aliases)) + f"={option.type}"
        for option in option_help(name)
        if option.name != positional
    ]
    items += ["key=value,..."] if registration.open_options else []
    head = f"{name}:{positional.upper()}" if positional else name
    return f"{head}[{',' if positional else ':'}{','.join(items)}]" if items else head


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The name and options of ``"NAME:key=value,..."``, each typed by the field that
    declares it (an undeclared one by its look); a ValueError says what is malformed."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(
            f"an agent spec must be a non-empty string, got {quoted(str(spec))}"
        )
    name, _, option_text = (part.strip() for part in spec.strip().partition(":"))
    registration = registry.AGENTS.get(name)
    declared = registration.options if registration else {}
    aliases = {
        alias: key
        for key, option in declared.items()
        for alias in option.field.metadata.get("aliases", ())
    }
    items = [part.strip() for part in option_text.split(",")]
    options: dict[str, Any] = {}
    if registration and registration.positional and items[0]:
        positional = registration.positional
        options[positional] = items.pop(0).removeprefix(f"{positional}=")
    for item in filter(None, items):
        written, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not written.isidentifier():
            raise ValueError(
                f"bad option {quoted(item)} in agent spec {quoted(spec)}: "
                "expected key=value"
            )
        key = aliases.get(written, written)
        if key in options:
            older = f" ({quoted(written)} is its older name)" if key != written else ""
            raise ValueError(
                f"option {quoted(key)} given twice in agent spec {quoted(spec)}{older}"
            )
        if key in declared:
            options[key] = convert(key, value, declared[key].annotation)
        else:
            options[key] = _guess_value(value)
    return name, options


def check_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The name and typed options of ``spec``, with every check that needs no agent
    built (the CLI's, the web page's and the brain's); a ValueError says "did you mean"."""
    name, options = parse_spec(spec)
    registration = registry.AGENTS.get(name)
    if registration is None:
        nearest = _nearest(name, registered_names())
        raise ValueError(
            f"unknown agent {quoted(name)} in spec {quoted(spec)}{nearest}; "
            f"accepted names: {', '.join(registered_names())} ('gomoku agents' lists "
            "each one's options)"
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
    """Build the agent named by ``spec`` for games of ``config``, seeded with ``seed``;
    a ValueError says what is wrong with the spec (or that its factory failed)."""
    name, options = check_spec(spec)
    registration = registry.AGENTS[name]
    if registration.search is not None:  # its options go to the tree as one object
        fields = [item.name for item in dataclasses.fields(registration.search)]
        search = {key: options.pop(key) for key in fields if key in options}
        options["search"] = dataclasses.replace(registration.search, **search)
    if "build" in inspect.signature(registration.factory).parameters:
        options["build"] = make_agent
    game = config or GameConfig()
    try:
        agent = registration.factory(config=game, seed=seed, **options)
    except (ValueError, FileNotFoundError, AgentFailedError) as error:
        if len(str(error)) <= MESSAGE_LIMIT:
            raise
        raise type(error)(quoted(str(error), MESSAGE_LIMIT, str)) from error
    except Exception as error:  # a factory's own failure, told as the spec's error
        raise ValueError(
            f"agent spec {quoted(spec)} failed to build: {type(error).__name__}: "
            f"{quoted(str(error), MESSAGE_LIMIT, str)}"
        ) from error
    if not isinstance(agent, Agent):
        raise TypeError(
            f"agent spec {quoted(spec)} built {quoted(repr(agent), MESSAGE_LIMIT, str)},"
            " which is not an Agent (it needs act(observation) and reset(seed=None))"
        )
    return agent


def _guess_value(text: str) -> Any:
    """An undeclared option's value (for a user's own factory) typed by its look."""
    for kind in (int, float):
        with contextlib.suppress(ValueError):
            return kind(text)
    return {"true": True, "false": False}.get(text.lower(), text)


def _nearest(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'mcts'?)"`` when a choice is close to ``word``, else ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
