"""Agent specs: one text syntax for naming an agent everywhere (CLI, arena, gym opponent).

A spec is a registered name with optional ``key=value`` options after a colon, such as
``"random"`` or ``"mcts:simulations=1000,c=1.4"``. Each agent module registers a factory
under its name; :func:`make_agent` builds the agent for a given game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.base import Agent
from agents.mcts import MCTSAgent
from agents.random_agent import RandomAgent
from gomoku_env.config import GameConfig

AgentFactory = Callable[..., Agent]
"""Called as ``factory(config=GameConfig, seed=int | None, **options)``."""

_FACTORIES: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make ``name`` usable in specs; ``factory(config, seed, **options)`` builds the agent."""
    _FACTORIES[name] = factory


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
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in option_text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise ValueError(
                f"bad option {item!r} in agent spec {spec!r}: expected key=value"
            )
        options[key.strip()] = _parse_value(value.strip())
    return name.strip(), options


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


def _make_alphazero(config: GameConfig, seed: int | None, **options: Any) -> Agent:
    # Imported here so that only specs naming AlphaZero pay for importing torch.
    from agents.alphazero.agent import AlphaZeroAgent

    return AlphaZeroAgent(config, seed=seed, **options)


register_agent("alphazero", _make_alphazero)
