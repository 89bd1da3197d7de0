"""MCTSAgent: Monte Carlo tree search as a policy, with the leaf evaluator you pass.

The agent rebuilds the position from the PettingZoo observation (or takes the env's
board), searches it with :class:`agents.search.SearchTree` and plays the most visited
move (a proven win first), or samples from the visits with a temperature. When the new
position follows the one it last searched (its own move, then one opponent move) it
keeps the subtree under those moves. The evaluator is an object, as in OpenSpiel's
``MCTSBot``: :class:`agents.search.RolloutEvaluator` (UCT over compiled rollouts, the
default), :class:`agents.search.pattern_evaluator.PatternEvaluator` or
:class:`agents.alphazero.evaluator.NetworkEvaluator` (PUCT with their priors).

>>> import gomoku_env
>>> from agents.mcts import MCTSAgent
>>> from agents.search import RolloutEvaluator
>>> env = gomoku_env.env(board_size=9)
>>> env.reset(seed=0)
>>> game = gomoku_env.GameConfig(board_size=9)
>>> agent = MCTSAgent(game, RolloutEvaluator(rollout="random"), simulations=200, seed=0)
>>> observation, *_ = env.last()
>>> action = agent.act(observation)
>>> agent.last_summary.simulations
200
"""

from __future__ import annotations

import time as clock
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.base import legal_actions
from agents.search import (
    RolloutEvaluator,
    SearchConfig,
    SearchEvaluator,
    SearchTree,
    run_searches,
    search_rounds,
)
from agents.search.pattern_evaluator import PatternEvaluator
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.errors import check_number
from gomoku_env.kernels import EMPTY
from gomoku_env.planes import board_from_observation

DEFAULT_EVALUATOR = RolloutEvaluator(rollout="tactical")
"""Compiled tactical rollouts: the agent's evaluator unless one is given."""

DEFAULT_SIMULATIONS = 1000
"""Simulations per move when neither ``simulations`` nor ``time`` is given."""

SPEC_ALIASES = {"c": "exploration", "batch": "leaves_per_round"}
"""Spec options kept under their first names (``mcts:c=1.2,batch=8`` means
``exploration=1.2, leaves_per_round=8``), for :func:`agents.specs.register_agent`."""


@dataclass(frozen=True)
class SearchSummary:
    """What the last search found, for overlays and logs.

    Attributes:
        action: the move played.
        visits: root visits per cell (int64, H*W).
        root_value: mean value of the root for the side to move, in [-1, 1].
        principal_variation: the expected line, the move played first.
        simulations: simulations run for this move.
        seconds: wall time of the search.
        reused_nodes: tree nodes kept from the previous move.
    """

    action: int
    visits: np.ndarray
    root_value: float
    principal_variation: list[int]
    simulations: int
    seconds: float
    reused_nodes: int

    def visit_distribution(self) -> np.ndarray:
        """Visits as probabilities over cells (float32)."""
        total = self.visits.sum()
        return (self.visits / max(total, 1)).astype(np.float32)


class MCTSAgent:
    """Tree search with a leaf evaluator; stops at ``simulations`` or ``time``
    seconds, whichever comes first.

    Without either, a move costs :data:`DEFAULT_SIMULATIONS` simulations. Given only
    ``time``, the time is the whole budget: no simulation count stops the search
    earlier, and the tree's size is bounded by ``max_nodes`` (a full tree stops
    growing and the search goes on refining the visits it has).

    Args:
        config: the game's rules.
        evaluator: how leaves are valued, and with it the formula: a
            :class:`RolloutEvaluator` (searched with UCT) or an
            :class:`agents.search.Evaluator` with priors (searched with PUCT).
        simulations: simulations per move (None: only the time budget counts, or
            :data:`DEFAULT_SIMULATIONS` when no time is given either).
        time: seconds per move (None: only the simulation budget counts).
        exploration: the exploration constant of the formula (spec option ``c``).
        leaves_per_round: leaves gathered per round (kept apart by virtual loss);
            with an evaluator, leaves per ``evaluate`` call (spec option ``batch``).
        distance: candidate points within this distance of a stone (0: every point).
        tactical: always take a win in one and block the opponent's win in one.
        vcf_nodes: 0 for none; n > 0 proves forced wins by fours in the tree with n
            solver nodes per node expanded, and at the root plays its own and stops
            the opponent's (:mod:`agents.search.tactics`).
        reuse: keep the subtree under the moves played between searches.
        temperature: 0 plays the best move; > 0 samples visits ** (1 / temperature).
        max_nodes: tree capacity in nodes (memory bound).
        edges_per_node: edge capacity per node (an expanded node has one edge per
            candidate point).
        seed: seeds the search and the move sampling; ``reset(seed)`` reseeds.

    Setting ``time_per_move`` (seconds, a :class:`~agents.base.TimedAgent`) overrides
    ``time``, as a Gomocup manager's turn time does.
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        evaluator: SearchEvaluator = DEFAULT_EVALUATOR,
        simulations: int | None = None,
        time: float | None = None,
        exploration: float = 1.0,
        leaves_per_round: int = 1,
        distance: int = 2,
        tactical: bool = True,
        vcf_nodes: int = 0,
        reuse: bool = True,
        temperature: float = 0.0,
        max_nodes: int = 1_000_000,
        edges_per_node: int = 16,
        seed: int | None = None,
    ) -> None:
        rounds = search_rounds(evaluator)  # refuses what is no evaluator
        if simulations is None and time is None:
            simulations = DEFAULT_SIMULATIONS
        check_search_options(simulations, time, leaves_per_round, temperature)
        self.config = config if config is not None else GameConfig()
        self.evaluator = evaluator
        self._rounds = rounds
        self.simulations, self.time = simulations, time
        self.leaves_per_round = leaves_per_round
        self.time_per_move: float | None = None
        self.reuse, self.temperature = reuse, float(temperature)
        search_config = SearchConfig(
            formula=rounds.formula,
            exploration=exploration,
            candidate_distance=distance,
            tactical=tactical,
            vcf_nodes=vcf_nodes,
            max_nodes=max_nodes,
            max_edges=max_nodes * edges_per_node,
        )
        self.tree = SearchTree(self.config, search_config)
        self.last_summary: SearchSummary | None = None
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Forget the game (and its tree); reseed when ``seed`` is given."""
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
            self.tree.reseed(None if seed is None else int(self._rng.integers(2**62)))
        self._searched: np.ndarray | None = None
        self.tree.reset(Board(self.config))

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The move for the position in this PettingZoo observation."""
        legal_actions(observation)
        return self.act_on_board(board_from_observation(observation, self.config))

    def act_on_board(self, board: Board) -> int:
        """The move for the side to move on ``board`` (e.g. the env's board)."""
        reused = self._move_root_to(board)
        started = clock.perf_counter()
        time = self.time if self.time_per_move is None else self.time_per_move
        (simulations,) = run_searches(
            [self.tree], self._rounds, self.simulations, time, self.leaves_per_round
        )
        seconds = clock.perf_counter() - started
        action = self._choose()
        self.last_summary = SearchSummary(
            action=action,
            visits=self.tree.visit_counts(),
            root_value=self.tree.root_value(),
            principal_variation=self.tree.principal_variation(),
            simulations=simulations,
            seconds=seconds,
            reused_nodes=reused,
        )
        self._advance_after(action, board)
        return action

    def _choose(self) -> int:
        if self.temperature == 0:
            return self.tree.best_action()
        distribution = self.tree.visit_distribution(self.temperature).astype(np.float64)
        return int(
            self._rng.choice(distribution.size, p=distribution / distribution.sum())
        )

    def _move_root_to(self, board: Board) -> int:
        """Point the tree at ``board``: reuse it when ``board`` is the searched position
        plus one opponent stone; returns the nodes kept."""
        previous = self._searched
        new_stones = None if previous is None else _added_stones(previous, board.cells)
        if (
            self.reuse
            and new_stones is not None
            and new_stones.size == 1
            and np.array_equal(self.tree.root_cells, previous)
            and not board.is_over
        ):
            self.tree.advance(int(new_stones[0]))
            return self.tree.node_count
        self.tree.reset(board)
        return 0

    def _advance_after(self, action: int, board: Board) -> None:
        """Move the root under our own move, unless that move ends the game."""
        self._searched = None
        after = board.copy()
        after.play(action)
        if self.reuse and not after.is_over:
            self.tree.advance(action)
            self._searched = after.cells.copy()


def _added_stones(before: np.ndarray, after: np.ndarray) -> np.ndarray | None:
    """Cells that gained a stone from ``before`` to ``after``; None if any changed
    otherwise (a stone removed or recoloured: not a continuation)."""
    changed = np.flatnonzero(before != after)
    if np.any(before[changed] != EMPTY):
        return None
    return changed


def check_search_options(
    simulations: int | None,
    time: float | None,
    leaves_per_round: int,
    temperature: float,
) -> None:
    """Raise ValueError (TypeError for a non-number), naming the option, unless these
    suit :class:`MCTSAgent`."""
    if simulations is None and time is None:
        raise ValueError("give simulations, time or both")
    if simulations is not None:
        check_number("simulations", simulations, minimum=1, integer=True)
    if time is not None:
        check_number("time", time, above=0)
    check_number("leaves_per_round", leaves_per_round, minimum=1, integer=True)
    check_number("temperature", temperature, minimum=0)


MCTS_EVALUATORS = ("rollout", "patterns")
"""The ``evaluator`` option of the ``mcts`` spec."""


def mcts_from_spec(
    config: GameConfig,
    seed: int | None,
    evaluator: str = "rollout",
    rollout: str | None = None,
    **options: Any,
) -> MCTSAgent:
    """An :class:`MCTSAgent` with the leaf evaluator its spec names.

    Args:
        evaluator: how leaves are valued: ``rollout`` (random playouts, searched with
            UCT) or ``patterns`` (the pattern evaluator's priors and values, PUCT).
        rollout: the playout policy of ``evaluator=rollout``: ``tactical`` (takes
            and blocks wins in one; the default) or ``random``.
    """
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
    return MCTSAgent(config, leaf_evaluator, seed=seed, **options)
