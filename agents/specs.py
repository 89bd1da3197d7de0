"""Agent specs: one text syntax for naming an agent everywhere (CLI, arena, gym opponent).

A spec is a registered name with optional ``key=value`` options after a colon, such as
``"random"`` or ``"mcts:simulations=1000,c=1.4"``. Each agent module registers a factory
under its name; :func:`make_agent` builds the agent for a given game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.base import Agent
from agents.gomocup.engine_agent import EngineAgent
from agents.mcts import MCTSAgent
from agents.random_agent import RandomAgent
from gomoku_env.config import GameConfig

AgentFactory = Callable[..., Agent]
"""Called as ``factory(config=GameConfig, seed=int | None, **options)``."""

_FACTORIES: dict[str, AgentFactory] = {}
_POSITIONAL: dict[str, str] = {}


def register_agent(
    name: str, factory: AgentFactory, positional: str | None = None
) -> None:
    """Make ``name`` usable in specs; ``factory(config, seed, **options)`` builds it.

    With ``positional``, the first item after the colon is the value of that option
    even without ``key=``, taken verbatim: ``"engine:/opt/pbrain-x,time=1"`` passes
    ``path="/opt/pbrain-x"`` (so the value may hold ':', '/' or '=', but not ',').
    """
    _FACTORIES[name] = factory
    if positional is not None:
        _POSITIONAL[name] = positional


def registered_names() -> list[str]:
    """The agent names that specs accept, sorted."""
    return sorted(_FACTORIES)


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


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value,key=value"`` into the name and typed options."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec must be a non-empty string, got {spec!r}")
    name, _, option_text = spec.strip().partition(":")
    name = name.strip()
    options: dict[str, Any] = {}
    items = [part.strip() for part in option_text.split(",")]
    positional = _POSITIONAL.get(name)
    if positional is not None and items[0]:
        options[positional] = items.pop(0).removeprefix(f"{positional}=")
    for item in filter(None, items):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise ValueError(
                f"bad option {item!r} in agent spec {spec!r}: expected key=value"
            )
        options[key.strip()] = _parse_value(value.strip())
    return name, options


def make_agent(
    spec: str, config: GameConfig | None = None, seed: int | None = None
) -> Agent:
    """Build the agent named by ``spec`` for games of ``config``."""
    name, options = parse_spec(spec)
    if name not in _FACTORIES:
        raise ValueError(
            f"unknown agent {name!r} in spec {spec!r}; "
            f"accepted names: {', '.join(registered_names())}"
        )
    try:
        return _FACTORIES[name](config=config or GameConfig(), seed=seed, **options)
    except TypeError as error:
        raise ValueError(
            f"bad options for agent {name!r} in spec {spec!r}: {error}"
        ) from None


register_agent(
    "random", lambda config, seed, **options: RandomAgent(seed=seed, **options)
)
register_agent("mcts", lambda config, seed, **kw: MCTSAgent(config, seed=seed, **kw))


def _make_engine(
    config: GameConfig, seed: int | None, path: str = "", **options: Any
) -> Agent:
    """An :class:`EngineAgent` from ``"engine:PATH,time=...,grace=..."``; no seed used."""
    if not path:
        raise ValueError(
            "the engine spec needs a path, as in 'engine:/path/to/pbrain-x'"
        )
    return EngineAgent(path, config=config, **options)


register_agent("engine", _make_engine, positional="path")
