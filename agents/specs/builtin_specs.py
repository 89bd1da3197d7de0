"""The built-in agents of the spec syntax, registered in :mod:`agents.specs.registry`
when :mod:`agents.specs.parse` loads.

Each agent's own spec options are one small dataclass here (its keywords, with their
help); the tree searches add the fields of one :class:`agents.budget.Budget` and one
:class:`agents.search.SearchOptions`, with each agent's own defaults (its named budget
and preset); alpha-beta's are the budget's and
:class:`agents.classic.alphabeta.AlphaBetaOptions`. Factories that need heavy imports
(torch for AlphaZero and PPO, the engine client for ``engine``) import them when
called, so building any other agent loads neither. The ``curriculum`` opponent
(:mod:`agents.curriculum`) is made of anchors that it builds from their specs with
the ``build`` that the parser hands it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.base import Agent, RandomAgent
from agents.budget import (
    ALPHABETA_BUDGET,
    ALPHABETA_LIMITS,
    ALPHAZERO_BUDGET,
    BUDGET_FIELDS,
    MCTS_BUDGET,
    TREE_SEARCH_LIMITS,
    spec_budget,
    uncounted,
)
from agents.classic.alphabeta import AlphaBetaAgent, AlphaBetaOptions
from agents.classic.heuristic import HeuristicAgent
from agents.curriculum import CurriculumOptions, curriculum_from_spec
from agents.patterns.point_shapes import ATTACK_WEIGHT, DEFENCE_WEIGHT
from agents.search import ALPHAZERO_PRESET, MCTS_PRESET, SearchOptions
from agents.search.mcts import mcts_from_spec, split_spec_options
from agents.specs.python_agent import load_python_agent
from agents.specs.registry import register_agent
from gomoku_env.config import GameConfig
from gomoku_env.errors import require_extra
from gomoku_env.fields import option


@dataclass(frozen=True)
class TreeAgentOptions:
    """How a tree-search agent picks its move from the search (both MCTS agents)."""

    reuse: bool = option(
        True, help="keep the subtree under the moves played between searches"
    )
    temperature: float = option(
        0.0,
        help="0 plays the best move; > 0 samples visits ** (1 / temperature)",
        minimum=0,
    )


@dataclass(frozen=True)
class MCTSSpecOptions(TreeAgentOptions):
    """The ``mcts`` spec's own options."""

    evaluator: str = option(
        "rollout",
        help="how leaves are valued: ``rollout`` (playouts of the ``rollout`` kind, "
        "searched with UCT) or ``patterns`` (the pattern evaluator's priors and "
        "values, PUCT)",
    )


@dataclass(frozen=True)
class AlphaZeroSpecOptions(TreeAgentOptions):
    """The ``alphazero`` spec's own options."""

    weights: str | None = option(
        None,
        help="a bundled network name (``8x8``, ``9x9``, ``15x15`` or "
        "``15x15-gumbel``) or a weights file (default: the bundled network for the "
        "board size, ``15x15-gumbel`` on 15x15 and on sizes without their own); "
        "without simulations or time, ``15x15-gumbel`` searches 400 simulations a "
        "move and every other network 200",
    )
    device: str = option("cpu", help="where the network runs (``cpu``, ``cuda``)")
    threads: int | None = option(
        1,
        help="torch CPU threads (1: a search's batches are small and the cores are "
        "shared); none: at most 2, within OMP_NUM_THREADS",
        minimum=1,
    )


@dataclass(frozen=True)
class EngineSpecOptions:
    """The ``engine`` spec's options: the brain and its time limits."""

    path: str = option(help="the engine's program (a Gomocup ``pbrain-*`` brain)")
    time: float = option(
        1.0,
        help="the engine's time per move in seconds (``INFO timeout_turn``)",
        above=0,
    )
    match_time: float = option(
        0.0,
        help="the engine's time for a whole game in seconds, 0 for no limit",
        minimum=0,
    )
    grace: float = option(
        1.0,
        help="extra seconds to wait for an answer before the engine counts as silent",
        minimum=0,
    )
    startup: float = option(
        15.0, help="seconds the engine may take to start and answer START", above=0
    )
    max_memory: int = option(
        0, help="memory limit in bytes sent to the engine, 0 for none", minimum=0
    )


@dataclass(frozen=True)
class HeuristicSpecOptions:
    """The ``heuristic`` spec's options: the weights of its one-ply score, and the
    share of random moves."""

    attack: int = option(
        ATTACK_WEIGHT, help="weight of the point's value to the mover", minimum=0
    )
    defence: int = option(
        DEFENCE_WEIGHT, help="weight of the point's value to the opponent", minimum=0
    )
    noise: float = option(
        0.0,
        help="share of moves played at a uniformly drawn legal point (0: none, 1: "
        "random); cheap weaker anchors",
        minimum=0,
        maximum=1,
    )


@dataclass(frozen=True)
class WeightsSpecOptions:
    """The ``ppo`` spec's option: which policy plays."""

    weights: str | None = option(
        None,
        help="a shipped policy's name (9x9) or a policy file written by gomoku train "
        "ppo (default: the shipped policy for the board size)",
    )


@dataclass(frozen=True)
class PythonSpecOptions:
    """The ``python`` spec's option; any others go to the target."""

    target: str = option(
        help="``MODULE:ATTRIBUTE`` or ``FILE.py:ATTRIBUTE``: a class, a factory or an "
        "agent instance; further ``key=value`` options go to it"
    )


def _make_random(config: GameConfig, seed: int | None) -> Agent:
    return RandomAgent(seed=seed)


register_agent("random", _make_random)
register_agent(
    "python",
    load_python_agent,
    positional="target",
    options=(PythonSpecOptions,),
    open_options=True,
)
register_agent(
    "mcts",
    mcts_from_spec,
    options=(MCTSSpecOptions, MCTS_BUDGET),
    search=MCTS_PRESET,
    withheld=uncounted(TREE_SEARCH_LIMITS),
)


def _make_engine(config: GameConfig, seed: int | None, **options: Any) -> Agent:
    # Imported here so that only specs naming an engine load the engine client.
    from agents.gomocup.engine_agent import engine_from_spec

    return engine_from_spec(config, seed, **options)


register_agent("engine", _make_engine, positional="path", options=(EngineSpecOptions,))
register_agent("heuristic", HeuristicAgent, options=(HeuristicSpecOptions,))


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
    config: GameConfig,
    seed: int | None,
    search: SearchOptions,
    weights: str | None = None,
    **options: Any,
) -> Agent:
    """An :class:`AlphaZeroAgent` from its spec's options; without a budget option, it
    plays at its network's own default budget."""
    agent = _alphazero_agent()
    budget_given = any(name in options for name in BUDGET_FIELDS)
    budget, rest = split_spec_options(options, ALPHAZERO_BUDGET)
    return agent(
        config, weights, budget if budget_given else None, search, seed=seed, **rest
    )


register_agent(
    "alphazero",
    _make_alphazero,
    options=(AlphaZeroSpecOptions, ALPHAZERO_BUDGET),
    search=ALPHAZERO_PRESET,
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
    """The PPO policy network of :mod:`agents.ppo`, playing its best-scored move."""
    return _ppo_loader()(config, seed=seed, weights=weights)


register_agent("ppo", _make_ppo, options=(WeightsSpecOptions,))
register_agent("curriculum", curriculum_from_spec, options=(CurriculumOptions,))
