"""AlphaBetaAgent: iterative-deepening negamax over pattern-ordered moves, with VCF.

Each move goes through three steps:

1. a VCF search for the mover: a forced win by fours is played at once;
2. a VCF search for the opponent: if the opponent has one, the root moves are cut to
   those after which it has none (when some exist);
3. iterative deepening of :func:`agents.classic.alphabeta_search.negamax` until the
   budget (:class:`agents.budget.Budget`: nodes and/or seconds) or the depth limit runs
   out; each iteration's transposition table orders the next.

A ``nodes`` budget counts work (alpha-beta nodes and every VCF search's nodes, the
root's included), so the same seed and nodes give the same move on any machine; the
first iteration always completes, as under the clock.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from agents.budget import ALPHABETA_BUDGET, ALPHABETA_LIMITS, Budget
from agents.classic import alphabeta_search as search
from agents.classic.reports import (
    SearchReport,
    fitted_config,
    pattern_state,
    position_of,
)
from agents.patterns.pattern_state import COUNT_FIVES, PatternState
from agents.patterns.threats import (
    ROOT_VCF_NODES,
    VCF_PLIES,
    find_vcf,
    refuting_moves,
    side_of,
)
from gomoku_env.board import Board
from gomoku_env.config import MAX_BOARD_SIZE, GameConfig
from gomoku_env.fields import check_fields, option
from gomoku_env.kernels import centre_point, other_color

MAX_DEPTH = 64
UNLIMITED_NODES = int(np.iinfo(np.int64).max)
TIME_MARGIN = 0.85
"""Share of the time left that the node limit of the next iteration may use: the
node rate of a deeper iteration is a little lower than that of the last one."""


@dataclass(frozen=True)
class AlphaBetaOptions:
    """Settings of :class:`AlphaBetaAgent` (all validated); with the budget's fields,
    the ``alphabeta`` spec's options."""

    depth: int | None = option(
        None,
        help="the deepest iteration (none: up to the budget, at most 64)",
        minimum=1,
    )
    branching: int = option(
        12, help="moves searched per node, best pattern scores first", minimum=1
    )
    vcf_plies: int = option(
        VCF_PLIES,
        help="plies of the root VCF searches (for the mover and the opponent)",
        minimum=1,
        maximum=MAX_BOARD_SIZE**2,
    )
    vcf_nodes: int = option(
        ROOT_VCF_NODES, help="node budget of each root VCF search", minimum=1
    )
    leaf_vcf_plies: int = option(
        5,
        help="plies of the VCF run at the horizon (0: none)",
        minimum=0,
        maximum=MAX_BOARD_SIZE**2,
    )
    table_bits: int = option(
        19,
        help="the transposition table holds 2 ** table_bits entries (33 bytes each)",
        minimum=4,
        maximum=26,
    )

    def __post_init__(self) -> None:
        check_fields(self)


class AlphaBetaAgent:
    """Classic Gomoku AI: alpha-beta search over the pattern evaluator, plus VCF.

    Args:
        config: the game; observations must match it. Without one the agent plays
            five in a row, freestyle, on the board size each observation has.
        seed: seeds the ranking that breaks move-ordering ties; ``reset(seed)`` reseeds.
            With a depth limit or a nodes budget and no clock, the same seed gives the
            same moves.
        budget: nodes and/or seconds a move (simulations are refused); None: the
            ``depth`` alone stops the search.
        **options: the fields of :class:`AlphaBetaOptions` (depth, branching, …).

    ``act`` accepts a PettingZoo observation or a :class:`gomoku_env.Board`;
    ``last_report`` holds the principal variation, score, nodes and depth of the last
    search. Setting ``time_per_move`` (seconds) overrides the budget's time, as the
    :class:`agents.base.TimedAgent` protocol asks (the Gomocup brain sets it).
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        seed: int | None = None,
        budget: Budget | None = ALPHABETA_BUDGET,
        **options: object,
    ) -> None:
        self.config = config if config is not None else GameConfig()
        self._any_size = config is None  # no game given: fit the board it is shown
        self.options = AlphaBetaOptions(**options)
        if budget is None and self.options.depth is None:
            raise ValueError("give a budget, a depth limit, or both (both are None)")
        if budget is not None:
            budget.refuse(type(self).__name__, ALPHABETA_LIMITS)
        self.budget = budget
        self._zobrist = search.zobrist_keys(self.config.cells)
        self._table = search.new_table(self.options.table_bits)
        self._rng = np.random.default_rng(seed)
        self._tie_rank = np.arange(self.config.cells, dtype=np.int64)
        self.time_per_move: float | None = None
        self.last_report: SearchReport | None = None

    def reset(self, seed: int | None = None) -> None:
        """Clear the transposition table and the last report; reseed when given."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._table = search.new_table(self.options.table_bits)
        self.last_report = None

    def act(self, observation: dict[str, np.ndarray] | Board) -> int:
        """The move chosen by VCF or by the alpha-beta search for the position."""
        start = time.perf_counter()
        fitted = fitted_config(observation, self.config)
        if self._any_size and fitted != self.config:
            self.config = fitted
            self._zobrist = search.zobrist_keys(self.config.cells)
            self._tie_rank = np.arange(self.config.cells, dtype=np.int64)
            self._table = search.new_table(self.options.table_bits)
        board = position_of(observation, self.config)
        if not board.moves:
            move = centre_point(self.config.board_size)
            return self._finish(start, move, 0, (move,), 0, 0, "opening")
        state = pattern_state(board)
        color = board.to_move
        self._tie_rank = self._rng.permutation(self.config.cells).astype(np.int64)
        line = np.empty(self.options.vcf_plies + 1, dtype=np.int64)
        length, nodes = find_vcf(
            state, color, self.options.vcf_plies, self._vcf_nodes(0), line
        )
        if length > 0:
            pv = tuple(int(move) for move in line[:length])
            return self._finish(
                start, pv[0], search.WIN_SCORE - length, pv, nodes, 0, "vcf"
            )
        root_moves, defence_nodes = self._defence(state, color, nodes)
        return self._deepen(start, state, color, root_moves, nodes + defence_nodes)

    def _vcf_nodes(self, used: int) -> int:
        """The node budget of a root VCF search after ``used`` nodes of the move: the
        ``vcf_nodes`` option, cut to what a nodes budget has left (at least one)."""
        limit = None if self.budget is None else self.budget.nodes
        if limit is None:
            return self.options.vcf_nodes
        return max(1, min(self.options.vcf_nodes, limit - used))

    def _defence(
        self, state: PatternState, color: int, used: int
    ) -> tuple[np.ndarray, int]:
        """Root moves that stop the opponent's VCF (empty: no restriction) and nodes."""
        opponent = other_color(color)
        options = self.options
        if state.counts[side_of(opponent), COUNT_FIVES] > 0:
            return np.empty(0, dtype=np.int64), 0
        line = np.empty(options.vcf_plies + 1, dtype=np.int64)
        vcf_nodes = self._vcf_nodes(used)
        length, nodes = find_vcf(state, opponent, options.vcf_plies, vcf_nodes, line)
        if length == 0:
            return np.empty(0, dtype=np.int64), nodes
        candidates = search.ordered_candidates(
            state, color, self._tie_rank, -1, 4 * options.branching
        )
        per_move = max(1, vcf_nodes // max(1, candidates.size))
        refuting = refuting_moves(state, color, candidates, options.vcf_plies, per_move)
        return refuting[: options.branching], nodes

    def _deepen(
        self, start: float, state: PatternState, color: int, root_moves: np.ndarray,
        nodes: int,
    ) -> int:  # fmt: skip
        """Iterative deepening under the budget and the depth limit."""
        options = self.options
        deadline, max_nodes = self._limits(start)
        context = search.SearchContext(
            zobrist=self._zobrist, tie_rank=self._tie_rank,
            counters=np.zeros(search.COUNTER_SLOTS, dtype=np.int64),
            root_moves=root_moves, branching=options.branching,
            leaf_vcf_plies=options.leaf_vcf_plies, leaf_vcf_nodes=200,
        )  # fmt: skip
        key = search.position_hash(state, self._zobrist)
        best, score, completed = -1, 0, 0
        node_limit = UNLIMITED_NODES
        for depth in range(1, (options.depth or MAX_DEPTH) + 1):
            if depth > 1 and nodes >= max_nodes:
                break
            iteration_start = time.perf_counter()
            counters = context.counters
            counters[:] = 0
            # The first iteration always completes; later ones stop at the budget.
            left = max_nodes - nodes if depth > 1 else UNLIMITED_NODES
            counters[search.NODE_LIMIT] = min(node_limit, left)
            value = search.negamax(
                state, self._table, context, color, depth, -search.INFINITY,
                search.INFINITY, 0, key,
            )  # fmt: skip
            nodes += counters[search.NODES] + counters[search.VCF_NODES]
            if counters[search.ABORTED]:
                break
            best, score, completed = int(counters[search.BEST_MOVE]), int(value), depth
            if abs(score) > search.WIN_THRESHOLD:
                break
            if deadline is not None:
                node_limit = _clock_limit(deadline, iteration_start, counters)
                if node_limit == 0:
                    break
        pv = self._principal_variation(state, color, key, completed, best)
        reason = "defence" if root_moves.size else "search"
        return self._finish(start, best, score, pv, nodes, completed, reason)

    def _limits(self, start: float) -> tuple[float | None, int]:
        """The deadline (None: no clock; ``time_per_move`` overrides the budget's) and
        the nodes a move may use."""
        seconds = self.time_per_move
        if seconds is None and self.budget is not None:
            seconds = self.budget.time
        nodes = None if self.budget is None else self.budget.nodes
        return (
            None if seconds is None else start + seconds,
            UNLIMITED_NODES if nodes is None else nodes,
        )

    def _principal_variation(
        self, state: PatternState, color: int, key: int, completed: int, best: int
    ) -> tuple[int, ...]:
        """The line the last completed iteration expects, starting with ``best``."""
        pv = search.principal_variation(
            state, self._table, self._zobrist, color, key, max(completed, 1)
        )
        return tuple(int(move) for move in pv) if pv.size and pv[0] == best else (best,)

    def _finish(
        self, start: float, move: int, score: int, pv: tuple[int, ...], nodes: int,
        depth: int, reason: str,
    ) -> int:  # fmt: skip
        self.last_report = SearchReport(
            move=int(move), score=int(score), principal_variation=pv, nodes=int(nodes),
            depth=depth, reason=reason, elapsed=time.perf_counter() - start,
        )  # fmt: skip
        return int(move)


def _clock_limit(deadline: float, iteration_start: float, counters: np.ndarray) -> int:
    """The node limit of the next iteration that the clock leaves, at the last
    iteration's node rate; 0 when there is no time for it (less than twice the last)."""
    now = time.perf_counter()
    spent = max(now - iteration_start, 1e-4)
    if deadline - now < 2 * spent:
        return 0
    searched = counters[search.NODES] + counters[search.VCF_NODES]
    return int(TIME_MARGIN * (deadline - now) * searched / spent)
