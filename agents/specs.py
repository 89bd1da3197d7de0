"""Agent specs: one text syntax to name an agent everywhere (CLI, arena, gym opponent).

A spec is ``NAME[:OPTIONS]``: a registered agent name, then ``key=value`` options
separated by commas, typed as int, float, bool or text: ``"random"``,
``"mcts:simulations=1000,c=1.4"``, ``"alphazero:weights=9x9,simulations=200"``.

An agent registered with a ``positional`` option takes the first item after the colon
as that option's value, verbatim (it may hold ``:``, ``/`` or ``=``, not ``,``):
``"engine:/path/to/pbrain,time=1"`` passes ``path="/path/to/pbrain"``, and
``"python:my_module:make_agent,depth=3"`` passes ``target="my_module:make_agent"``
(your own agent, see :mod:`agents.python_agent`).

This module registers the built-in agents (``random``, ``python``, ``mcts``, ``engine``,
``heuristic``, ``alphabeta``, ``alphazero``) when it is imported; other code may add
its own with :func:`register_agent`. :func:`make_agent` builds the agent for a given
game. Factories that need heavy imports (torch for AlphaZero, the engine client for
``engine``) import them when called, so building any other agent loads neither.

>>> parse_spec("mcts:simulations=1000,c=1.4")
('mcts', {'simulations': 1000, 'c': 1.4})
>>> parse_spec("python:my_module:make_agent,depth=3")
('python', {'target': 'my_module:make_agent', 'depth': 3})
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.base import Agent, AgentFailedError
from agents.classic.alphabeta import AlphaBetaAgent
from agents.classic.heuristic import HeuristicAgent
from agents.mcts import MCTSAgent
from agents.python_agent import load_python_agent
from agents.random_agent import RandomAgent
from agents.search import RolloutEvaluator, SearchEvaluator
from agents.search.pattern_evaluator import PatternEvaluator
from gomoku_env.config import GameConfig

AgentFactory = Callable[..., Agent]
"""Called as ``factory(config=GameConfig, seed=int | None, **options)``."""


@dataclass(frozen=True)
class _Registration:
    factory: AgentFactory
    positional: str | None
    usage: str


_REGISTRY: dict[str, _Registration] = {}


def register_agent(
    name: str, factory: AgentFactory, positional: str | None = None, usage: str = ""
) -> None:
    """Make ``name`` usable in specs.

    Args:
        name: the spec name, a word without ``:`` or ``,`` (e.g. ``"mcts"``).
        factory: builds the agent as ``factory(config=..., seed=..., **options)``.
        positional: the option that the first item after the colon gives, verbatim and
            without ``key=`` (``"path"`` for ``"engine:/opt/pbrain,time=1"``).
        usage: the spec syntax shown in error messages, e.g. ``"mcts:simulations=N"``.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"an agent name must be a word like 'mcts', got {name!r}")
    if not callable(factory):
        raise TypeError(
            f"the factory for agent {name!r} must be callable, got {factory!r}"
        )
    _REGISTRY[name] = _Registration(factory, positional, usage or name)


def registered_names() -> list[str]:
    """The agent names that specs accept, sorted."""
    return sorted(_REGISTRY)


def accepted_specs() -> str:
    """The accepted names and each one's spec syntax, for help and error texts."""
    usages = "; ".join(_REGISTRY[name].usage for name in registered_names())
    return f"accepted names: {', '.join(registered_names())} (syntax: {usages})"


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
    """Split ``"NAME:key=value,..."`` into the name and typed options.

    Raises:
        ValueError: an empty spec, an option that is not ``key=value``, or an option
            given twice.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec must be a non-empty string, got {spec!r}")
    name, _, option_text = spec.strip().partition(":")
    name = name.strip()
    items = [part.strip() for part in option_text.split(",")]
    options: dict[str, Any] = {}
    registration = _REGISTRY.get(name)
    positional = registration.positional if registration else None
    if positional is not None and items[0]:
        options[positional] = items.pop(0).removeprefix(f"{positional}=")
    for item in filter(None, items):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or not key.isidentifier():
            raise ValueError(
                f"bad option {item!r} in agent spec {spec!r}: expected key=value"
            )
        if key in options:
            raise ValueError(f"option {key!r} given twice in agent spec {spec!r}")
        options[key] = _parse_value(value.strip())
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
    name, options = parse_spec(spec)
    registration = _REGISTRY.get(name)
    if registration is None:
        raise ValueError(f"unknown agent {name!r} in spec {spec!r}; {accepted_specs()}")
    try:
        agent = registration.factory(
            config=config or GameConfig(), seed=seed, **options
        )
    except TypeError as error:
        raise ValueError(
            f"bad options for agent {name!r} in spec {spec!r}: {error}; "
            f"expected {registration.usage}"
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


def _make_random(config: GameConfig, seed: int | None, **options: Any) -> Agent:
    if options:
        raise TypeError(f"random takes no options, got {sorted(options)}")
    return RandomAgent(seed=seed)


register_agent("random", _make_random, usage="random")
register_agent(
    "python",
    load_python_agent,
    positional="target",
    usage="python:MODULE_OR_FILE.py:ATTRIBUTE[,key=value,...]",
)
MCTS_EVALUATORS = ("rollout", "patterns")
"""The ``evaluator`` option of the ``mcts`` spec."""


def _make_mcts(
    config: GameConfig,
    seed: int | None,
    evaluator: str = "rollout",
    rollout: str | None = None,
    **options: Any,
) -> Agent:
    """An :class:`MCTSAgent` whose ``evaluator`` option names its evaluator:
    ``rollout`` (a :class:`RolloutEvaluator` of kind ``rollout``, tactical by default)
    or ``patterns`` (a :class:`PatternEvaluator` for the game)."""
    if evaluator not in MCTS_EVALUATORS:
        raise ValueError(
            f"evaluator must be one of {MCTS_EVALUATORS}, got {evaluator!r}"
        )
    if evaluator == "patterns":
        if rollout is not None:
            raise ValueError(f"rollout={rollout!r} needs evaluator=rollout")
        leaf_evaluator: SearchEvaluator = PatternEvaluator(config)
    else:
        leaf_evaluator = RolloutEvaluator(rollout or "tactical")
    return MCTSAgent(
        config, leaf_evaluator, seed=seed, **MCTSAgent.spec_options(options)
    )


register_agent(
    "mcts",
    _make_mcts,
    usage="mcts[:simulations=N,time=S,c=C,batch=B,distance=D,tactical=BOOL,"
    "rollout=tactical|random,evaluator=rollout|patterns,reuse=BOOL,temperature=T,"
    "max_nodes=N]",
)


def _make_engine(
    config: GameConfig, seed: int | None, path: str = "", **options: Any
) -> Agent:
    """An :class:`EngineAgent` from ``"engine:PATH,time=...,grace=..."``; no seed used."""
    # Imported here so that only specs naming an engine load the engine client.
    from agents.gomocup.engine_agent import EngineAgent

    if not path:
        raise ValueError(
            "the engine spec needs a path, as in 'engine:/path/to/pbrain-x'"
        )
    return EngineAgent(path, config=config, **options)


register_agent(
    "engine",
    _make_engine,
    positional="path",
    usage="engine:PATH[,time=S,match_time=S,grace=S,max_memory=BYTES]",
)
register_agent(
    "heuristic", lambda config, seed, **options: HeuristicAgent(config, seed, **options)
)
register_agent(
    "alphabeta", lambda config, seed, **options: AlphaBetaAgent(config, seed, **options)
)


def _make_alphazero(config: GameConfig, seed: int | None, **options: Any) -> Agent:
    # Imported here so that only specs naming AlphaZero pay for importing torch.
    from agents.alphazero.agent import AlphaZeroAgent

    return AlphaZeroAgent(config, seed=seed, **AlphaZeroAgent.spec_options(options))


register_agent(
    "alphazero",
    _make_alphazero,
    usage="alphazero[:weights=NAME_OR_PATH,simulations=N,time=S]",
)
