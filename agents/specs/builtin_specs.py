"""The built-in agents of the spec syntax, registered in :mod:`agents.specs.registry`
when :mod:`agents.specs.parse` loads.

The tree searches' spec options are the fields of one :class:`agents.budget.Budget`
and one :class:`agents.search.SearchOptions`, listed with each agent's own defaults
(its named budget and preset), plus the agent's own keywords; alpha-beta's are the
budget's and :class:`agents.classic.alphabeta.AlphaBetaOptions`. Factories that need
heavy imports (torch for AlphaZero and PPO, the engine client for ``engine``) import
them when called, so building any other agent loads neither.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agents.base import Agent, RandomAgent
from agents.budget import (
    ALPHABETA_BUDGET,
    ALPHABETA_LIMITS,
    ALPHAZERO_BUDGET,
    MCTS_BUDGET,
    TREE_SEARCH_LIMITS,
    spec_budget,
    uncounted,
)
from agents.classic.alphabeta import AlphaBetaAgent, AlphaBetaOptions
from agents.classic.heuristic import HeuristicAgent
from agents.search import ALPHAZERO_PRESET, MCTS_PRESET
from agents.search.mcts import (
    SPEC_ALIASES,
    MCTSAgent,
    mcts_from_spec,
    split_spec_options,
)
from agents.specs.python_agent import load_python_agent
from agents.specs.registry import register_agent
from gomoku_env.config import GameConfig
from gomoku_env.errors import require_extra


def _make_random(config: GameConfig, seed: int | None) -> Agent:
    return RandomAgent(seed=seed)


register_agent("random", _make_random)
register_agent("python", load_python_agent, positional="target")
register_agent(
    "mcts",
    mcts_from_spec,
    options=(mcts_from_spec, MCTS_BUDGET, MCTS_PRESET, MCTSAgent),
    aliases=SPEC_ALIASES,
    withheld=uncounted(TREE_SEARCH_LIMITS),
)


def _make_engine(config: GameConfig, seed: int | None, **options: Any) -> Agent:
    # Imported here so that only specs naming an engine load the engine client.
    from agents.gomocup.engine_agent import engine_from_spec

    return engine_from_spec(config, seed, **options)


def _engine_options() -> list[Callable[..., Any]]:
    """The engine spec's options: the path, then :class:`EngineAgent`'s keywords."""
    from agents.gomocup.engine_agent import EngineAgent, engine_from_spec

    return [engine_from_spec, EngineAgent]


register_agent("engine", _make_engine, positional="path", options=_engine_options)
register_agent("heuristic", HeuristicAgent)


def _make_alphabeta(config: GameConfig, seed: int | None, **options: Any) -> Agent:
    budget = spec_budget(options, ALPHABETA_BUDGET)
    return AlphaBetaAgent(config, seed, budget, **options)


register_agent(
    "alphabeta",
    _make_alphabeta,
    options=(ALPHABETA_BUDGET, AlphaBetaOptions),
    withheld=uncounted(ALPHABETA_LIMITS),
)


def _alphazero_agent() -> type[Agent]:
    """:class:`AlphaZeroAgent`, imported on first use: only specs naming AlphaZero pay
    for importing torch, and without torch they say which extra to install."""
    require_extra(("torch",), "alphazero", "AlphaZero (agents.alphazero)")
    from agents.alphazero.agent import AlphaZeroAgent

    return AlphaZeroAgent


def _make_alphazero(
    config: GameConfig, seed: int | None, weights: str | None = None, **options: Any
) -> Agent:
    """An :class:`AlphaZeroAgent` from its spec's flat options.

    Args:
        weights: a bundled network name (``8x8``, ``9x9`` or ``15x15``) or a
            weights file (default: the bundled network for the board size).
    """
    agent = _alphazero_agent()
    budget, search, rest = split_spec_options(
        options, ALPHAZERO_BUDGET, ALPHAZERO_PRESET
    )
    return agent(config, weights, budget, search, seed=seed, **rest)


def _alphazero_options() -> Sequence[Any]:
    agent = _alphazero_agent()
    return (_make_alphazero, ALPHAZERO_BUDGET, ALPHAZERO_PRESET, agent, MCTSAgent)


register_agent(
    "alphazero",
    _make_alphazero,
    options=_alphazero_options,
    aliases=SPEC_ALIASES,
    # The network evaluates every leaf: no rollouts to choose.
    withheld=(*uncounted(TREE_SEARCH_LIMITS), "rollout"),
)


def _ppo_loader() -> Callable[..., Agent]:
    """:func:`agents.ppo.policy.load_ppo_agent`, imported on first use (torch)."""
    require_extra(("torch",), "ppo", "The PPO policy (agents.ppo)")
    from agents.ppo.policy import load_ppo_agent

    return load_ppo_agent


def _make_ppo(
    config: GameConfig, seed: int | None, weights: str | None = None
) -> Agent:
    """The PPO policy network of :mod:`agents.ppo`, playing its best-scored move.

    Args:
        weights: a shipped policy's name (9x9) or a policy file written by gomoku
            train ppo (default: the shipped policy for the board size).
    """
    return _ppo_loader()(config, seed=seed, weights=weights)


register_agent("ppo", _make_ppo)
