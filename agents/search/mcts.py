"""MCTSAgent: Monte Carlo tree search as a policy, with the leaf evaluator you pass.

The agent rebuilds the position from the PettingZoo observation (or takes the env's
board), searches it with :class:`agents.search.SearchTree` and plays the most visited
move (a proven win first), or samples from the visits with a temperature. When the new
position follows the one it last searched (its own move, then one opponent move) it
keeps the subtree under those moves. The evaluator is an object, as in OpenSpiel's
``MCTSBot``: None (UCT over the tree's compiled rollouts, the default),
:class:`agents.search.pattern_evaluator.PatternEvaluator` or
:class:`agents.alphazero.evaluator.NetworkEvaluator` (PUCT with their priors). The
search's knobs are one :class:`agents.search.SearchOptions` (default
:data:`agents.search.MCTS_PRESET`), its limits one :class:`agents.budget.Budget`.

>>> import gomoku_env
>>> from dataclasses import replace
>>> from agents.budget import Budget
>>> from agents.search.mcts import MCTSAgent
>>> from agents.search import MCTS_PRESET
>>> env = gomoku_env.env(board_size=9)
>>> env.reset(seed=0)
>>> game = gomoku_env.GameConfig(board_size=9)
>>> random_rollouts = replace(MCTS_PRESET, rollout="random")
>>> agent = MCTSAgent(game, None, Budget(simulations=200), random_rollouts, seed=0)
>>> observation, *_ = env.last()
>>> action = agent.act(observation)
>>> agent.last_summary.simulations
200
"""

from __future__ import annotations

import threading
import time as clock
import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from agents.base import legal_actions
from agents.budget import MCTS_BUDGET, TREE_SEARCH_LIMITS, Budget, spec_budget
from agents.search import (
    MCTS_PRESET,
    Evaluator,
    SearchOptions,
    SearchTree,
    run_searches,
)
from agents.search.driver import check_evaluator
from agents.search.pattern_evaluator import PatternEvaluator
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number, quoted
from gomoku_env.kernels import EMPTY
from gomoku_env.planes import board_from_observation


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


WARM_UP_SIMULATIONS = 8
"""Simulations of :meth:`MCTSAgent.warm_up`'s throwaway search."""
STARVED_SIMULATIONS = 16
"""Fewer simulations than this in a move searched on a clock: a starved search."""


class StarvedSearchWarning(UserWarning):
    """A search on a clock ran too few simulations to play at its strength."""


class MCTSAgent:
    """Tree search with a leaf evaluator, within a :class:`~agents.budget.Budget`
    (simulations or seconds, whichever ends first).

    Given only ``time``, the time is the whole budget: no simulation count stops the
    search earlier, and the tree's size is bounded by ``max_nodes`` (a full tree stops
    growing and the search goes on refining the visits it has).

    Args:
        config: the game's rules; without them the agent plays five in a row,
            freestyle, on the board size each observation has.
        evaluator: how leaves are valued, and with it the formula unless ``search``
            sets one: None (the tree's rollouts, searched with UCT) or an
            :class:`agents.search.Evaluator` with priors (searched with PUCT).
        budget: simulations and/or seconds a move; nodes are refused.
        search: the search's knobs (:data:`agents.search.MCTS_PRESET` when None).
        reuse: keep the subtree under the moves played between searches.
        temperature: 0 plays the best move; > 0 samples visits ** (1 / temperature).
        seed: seeds the search and the move sampling; ``reset(seed)`` reseeds.

    Setting ``time_per_move`` (seconds, a :class:`~agents.base.TimedAgent`) overrides
    the budget's ``time``, as a Gomocup manager's turn time does.
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        evaluator: Evaluator | None = None,
        budget: Budget = MCTS_BUDGET,
        search: SearchOptions | None = None,
        reuse: bool = True,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> None:
        self.evaluator = check_evaluator(evaluator)
        if not isinstance(budget, Budget):
            raise TypeError(f"budget must be a Budget, got {budget!r}")
        budget.refuse(type(self).__name__, TREE_SEARCH_LIMITS)
        check_number("temperature", temperature, minimum=0)
        self.config = config if config is not None else GameConfig()
        self._any_size = config is None  # no game given: fit the board it is shown
        self.budget = budget
        self.time_per_move: float | None = None
        self.reuse, self.temperature = reuse, float(temperature)
        search = search if search is not None else MCTS_PRESET
        self.tree = SearchTree(self.config, search.for_evaluator(evaluator is not None))
        self.last_summary: SearchSummary | None = None
        self._warned_starved = False
        self._searching = threading.Lock()
        self.reset(seed)

    def __getstate__(self) -> dict[str, Any]:
        """The agent's state for pickle and copy, without its thread lock."""
        state = self.__dict__.copy()
        del state["_searching"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._searching = threading.Lock()

    def reset(self, seed: int | None = None) -> None:
        """Forget the game (and its tree); reseed when ``seed`` is given."""
        if self._searching.locked():
            raise RuntimeError(
                f"{type(self).__name__}.reset() while it searches in another thread: "
                "give each thread its own agent"
            )
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
            self.tree.reseed(None if seed is None else int(self._rng.integers(2**62)))
        self._searched: np.ndarray | None = None
        self.tree.reset(Board(self.config))

    def warm_up(self) -> None:
        """Run the search once on a throwaway tree (a few simulations from the empty
        board), so that compiling its kernels (and, for a network, its first forward
        pass) happens now and not in a timed move. The agent's own tree and
        generators are untouched: its moves stay those of its seed."""
        tree = SearchTree(self.config, replace(self.tree.options, max_nodes=256))
        tree.reset(Board(self.config))
        run_searches([tree], self.evaluator, WARM_UP_SIMULATIONS, None)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The move for the position in this PettingZoo observation."""
        legal_actions(observation)
        size = int(np.shape(observation["observation"])[0])
        if self._any_size and size != self.config.board_size:
            self._fit(GameConfig(size, self.config.win_length, self.config.rule))
        return self.act_on_board(board_from_observation(observation, self.config))

    def _fit(self, config: GameConfig) -> None:
        """Play ``config`` from now on: a new tree for its board, seeded from the
        agent's generator (an agent built without a game fits the board it is shown)."""
        self.config = config
        self.tree = SearchTree(config, self.tree.options)
        self.tree.reseed(int(self._rng.integers(2**62)))
        self._searched = None
        self.tree.reset(Board(config))

    def act_on_board(self, board: Board) -> int:
        """The move for the side to move on ``board`` (e.g. the env's board).

        Raises:
            RuntimeError: another thread is in this agent's search: an agent owns one
                tree and is not thread-safe; give each thread its own agent.
        """
        if not self._searching.acquire(blocking=False):
            raise RuntimeError(
                f"{type(self).__name__} is searching in another thread: an agent "
                "owns one search tree and is not thread-safe; give each thread its "
                "own agent"
            )
        try:
            return self._search_and_choose(board)
        finally:
            self._searching.release()

    def _search_and_choose(self, board: Board) -> int:
        reused = self._move_root_to(board)
        started = clock.perf_counter()
        budget = self.budget.with_time(self.time_per_move)
        (simulations,) = run_searches(
            [self.tree], self.evaluator, budget.simulations, budget.time
        )
        seconds = clock.perf_counter() - started
        if budget.time is not None:
            self._warn_if_starved(simulations, seconds)
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

    def _warn_if_starved(self, simulations: int, seconds: float) -> None:
        """Warn once (an agent) when the clock stopped a move's search after fewer
        than :data:`STARVED_SIMULATIONS` simulations (a solved root stops early by
        right): such a move says nothing of the agent's strength."""
        if (
            simulations >= STARVED_SIMULATIONS
            or self.tree.is_solved
            or self._warned_starved
        ):
            return
        self._warned_starved = True
        warnings.warn(
            f"{type(self).__name__} ran {simulations} simulation(s) in {seconds:.2f} s "
            "on its clock: a starved search plays far below the agent's strength. "
            "Give it a work budget (simulations=N: the same moves on any machine) or "
            "more time, on an idle machine (AlphaZero: threads=1)",
            StarvedSearchWarning,
            stacklevel=3,
        )

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


MCTS_EVALUATORS = ("rollout", "patterns")
"""The ``evaluator`` option of the ``mcts`` spec."""


def split_spec_options(
    options: dict[str, Any], default_budget: Budget
) -> tuple[Budget, dict[str, Any]]:
    """A tree-search spec's flat options as its budget and the rest (the agent's own
    keywords).

    Raises:
        ValueError: every budget option given is none.
    """
    rest = dict(options)
    budget = spec_budget(rest, default_budget)
    if budget is None:
        raise ValueError("a tree search needs simulations or time (all are none)")
    return budget, rest


def mcts_from_spec(
    config: GameConfig,
    seed: int | None,
    search: SearchOptions = MCTS_PRESET,
    evaluator: str = "rollout",
    **options: Any,
) -> MCTSAgent:
    """An :class:`MCTSAgent` with the leaf evaluator its spec names (``rollout``:
    playouts searched with UCT, ``patterns``: the pattern evaluator, PUCT) and the
    search options its spec gives (``search``)."""
    if evaluator not in MCTS_EVALUATORS:
        raise ValueError(
            f"evaluator must be one of {MCTS_EVALUATORS}, got {quoted(str(evaluator))}"
        )
    if evaluator == "patterns" and search.rollout != MCTS_PRESET.rollout:
        raise ValueError(f"rollout={quoted(search.rollout)} needs evaluator=rollout")
    budget, rest = split_spec_options(options, MCTS_BUDGET)
    leaf_evaluator = PatternEvaluator(config) if evaluator == "patterns" else None
    return MCTSAgent(config, leaf_evaluator, budget, search, seed=seed, **rest)
