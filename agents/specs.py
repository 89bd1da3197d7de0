"""Agent specs: one text syntax to name an agent everywhere (CLI, arena, gym opponent).

A spec is ``NAME[:TARGET][:OPTIONS]``:

* ``NAME`` is a registered agent: ``"random"``, ``"heuristic"``, ``"mcts"``, …
* ``TARGET`` names what a few agents load: ``"python:my_module:make_agent"`` (your own
  agent, see :mod:`agents.python_agent`) or ``"engine:/path/to/brain"``.
* ``OPTIONS`` are ``key=value`` pairs separated by commas, typed as int, float, bool or
  text: ``"mcts:simulations=1000,c=1.4"``,
  ``"python:my_module:make_agent:simulations=50"``.

The options are the text after the last colon when it holds an ``=``; everything
between the name and the options is the target. End a spec with ``:`` when a target
itself contains ``=``.

Each agent module registers a factory under its name with :func:`register_agent` when it
is imported (``agents/__init__.py`` imports them); :func:`make_agent` builds the agent
for a given game.

>>> parse_spec("mcts:simulations=1000,c=1.4")
AgentSpec(name='mcts', target=None, options={'simulations': 1000, 'c': 1.4})
>>> parse_spec("python:my_module:make_agent")
AgentSpec(name='python', target='my_module:make_agent', options={})
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agents.base import Agent
from agents.python_agent import load_python_agent
from agents.random_agent import RandomAgent
from gomoku_env.config import GameConfig

AgentFactory = Callable[..., Agent]
"""Called as ``factory(config=GameConfig, seed=int | None, **options)``; agents that
take a target get it as ``target=str``."""


@dataclass(frozen=True)
class _Registration:
    factory: AgentFactory
    usage: str


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: the agent name, its target (or None) and its typed options."""

    name: str
    target: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


_REGISTRY: dict[str, _Registration] = {}


def register_agent(name: str, factory: AgentFactory, usage: str = "") -> None:
    """Make ``name`` usable in specs.

    Args:
        name: the spec name, lower case without ``:`` (e.g. ``"mcts"``).
        factory: builds the agent as ``factory(config=..., seed=..., **options)``, plus
            ``target=...`` when the spec carries one.
        usage: the spec syntax shown in error messages, e.g. ``"mcts:simulations=N"``.
    """
    if not isinstance(name, str) or not name or ":" in name or name != name.strip():
        raise ValueError(
            f"an agent name must be a non-empty word without ':', got {name!r}"
        )
    if not callable(factory):
        raise TypeError(
            f"the factory for agent {name!r} must be callable, got {factory!r}"
        )
    _REGISTRY[name] = _Registration(factory, usage or name)


def registered_names() -> list[str]:
    """The agent names that specs accept, sorted."""
    return sorted(_REGISTRY)


def accepted_specs() -> str:
    """One line per registered agent with its spec syntax, for help and error texts."""
    return "\n".join(f"  {_REGISTRY[name].usage}" for name in registered_names())


def _parse_value(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return text


def _parse_options(option_text: str, spec: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in option_text.split(","))):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or not key.isidentifier():
            raise ValueError(
                f"bad option {item!r} in agent spec {spec!r}: expected key=value"
            )
        if key in options:
            raise ValueError(f"option {key!r} given twice in agent spec {spec!r}")
        options[key] = _parse_value(value.strip())
    return options


def parse_spec(spec: str) -> AgentSpec:
    """Split ``"NAME[:TARGET][:OPTIONS]"`` into name, target and typed options."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec must be a non-empty string, got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    target, colon, option_text = rest.rpartition(":")
    if not colon and "=" not in option_text:
        target, option_text = option_text, ""
    elif colon and option_text and "=" not in option_text:
        target, option_text = rest, ""
    return AgentSpec(
        name.strip(), target.strip() or None, _parse_options(option_text, spec)
    )


def _unknown_agent_error(name: str, spec: str) -> ValueError:
    return ValueError(
        f"unknown agent {name!r} in spec {spec!r}; accepted specs:\n{accepted_specs()}"
    )


def make_agent(
    spec: str, config: GameConfig | None = None, seed: int | None = None
) -> Agent:
    """Build the agent named by ``spec`` for games of ``config``, seeded with ``seed``.

    Raises:
        ValueError: the spec is malformed, names no registered agent, or its target or
            options do not suit the agent (the message lists the accepted specs).
    """
    parsed = parse_spec(spec)
    registration = _REGISTRY.get(parsed.name)
    if registration is None:
        raise _unknown_agent_error(parsed.name, spec)
    keywords = dict(parsed.options)
    if parsed.target is not None:
        keywords["target"] = parsed.target
    try:
        agent = registration.factory(
            config=config or GameConfig(), seed=seed, **keywords
        )
    except TypeError as error:
        raise ValueError(
            f"bad target or options in agent spec {spec!r} ({error}); "
            f"expected {registration.usage}"
        ) from None
    if not isinstance(agent, Agent):
        raise TypeError(
            f"agent spec {spec!r} built {agent!r}, which is not an Agent "
            "(it needs act(observation) and reset(seed=None))"
        )
    return agent


def _make_random(config: GameConfig, seed: int | None, **options: Any) -> Agent:
    if options:
        raise TypeError(f"random takes no options, got {sorted(options)}")
    return RandomAgent(seed=seed)


register_agent("random", _make_random, usage="random")
register_agent(
    "python",
    load_python_agent,
    usage="python:MODULE_OR_FILE.py:ATTRIBUTE[:key=value,...]",
)
