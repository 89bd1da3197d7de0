"""SearchTree: one Monte Carlo tree search over a Gomoku position.

Python holds the root position and drives rounds; the tree and every per-simulation
step live in compiled kernels (:mod:`agents.search.rounds`). Rollout searches run whole
batches of simulations in one call; with an external evaluator each round is
:meth:`SearchTree.gather` → ``evaluator.evaluate`` → :meth:`SearchTree.apply`, which
:func:`agents.search.batch.step_searches` does for many trees with one evaluator call.
"""

from __future__ import annotations

import time

import numpy as np

from agents.evaluator import Evaluator
from agents.search.arrays import (
    EDGES_USED,
    LOSS,
    NODES_USED,
    UNKNOWN,
    WIN,
    allocate_tree,
    clear_tree,
    compact_subtree,
)
from agents.search.config import ROLLOUTS, SearchConfig
from agents.search.position_kernels import is_legal_point
from agents.search.rng import new_state
from agents.search.rounds import (
    apply_evaluations,
    gather_leaves,
    run_rollouts,
    write_leaf_inputs,
)
from agents.search.select import PUCT, UCT
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.kernels import BLACK, other_color, place_and_judge

_SECONDS_PER_CHUNK = 0.005


class SearchTree:
    """A search tree over one position; see :mod:`agents.search` for the workflow.

    Args:
        game: the game's rules (board size, win length, rule).
        config: search knobs; :class:`SearchConfig` defaults when None.
        seed: seeds the search's randomness (edge order, rollouts, root noise).
    """

    def __init__(
        self,
        game: GameConfig,
        config: SearchConfig | None = None,
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.config = config if config is not None else SearchConfig()
        cfg = self.config
        self._game = np.array(
            [
                game.board_size,
                game.win_length,
                game.rule.code,
                cfg.candidate_distance,
                int(cfg.tactical),
                ROLLOUTS.index(cfg.rollout),
            ],
            dtype=np.int64,
        )
        self._knobs = np.array(
            [
                PUCT if cfg.formula == "puct" else UCT,
                cfg.exploration,
                cfg.fpu,
                cfg.virtual_loss,
            ],
            dtype=np.float64,
        )
        self._tree = allocate_tree(cfg.max_nodes, cfg.max_edges)
        self._spare = None
        self._cells = np.zeros(game.cells, dtype=np.int8)
        self._state = np.array([BLACK, -1, 0], dtype=np.int64)
        self._leaves = np.empty(0, dtype=np.int32)
        self._leaf_count = 0
        self.last_round_proven = 0
        self.simulations = 0
        self.reseed(seed)
        self.reset(Board(game))

    def reseed(self, seed: int | None) -> None:
        """Restart the search's random streams from ``seed``."""
        self._rng = np.random.default_rng(seed)
        self._kernel_rng = new_state(int(self._rng.integers(2**62)))

    # --- the root position -------------------------------------------------------

    def reset(self, board: Board) -> None:
        """Search from ``board``'s position with an empty tree.

        Raises:
            ValueError: the game on ``board`` is over, or its rules differ.
        """
        if board.config != self.game:
            raise ValueError(
                f"board rules {board.config} differ from the search's {self.game}"
            )
        if board.is_over:
            raise ValueError(f"cannot search a finished game: {board!r}")
        self._cells[:] = board.cells
        last = board.last_move
        self._state[:] = (board.to_move, -1 if last is None else last, len(board.moves))
        clear_tree(self._tree, -1)
        self._leaf_count = 0
        self._noise_due = self.config.dirichlet_fraction > 0

    def advance(self, action: int) -> None:
        """Play ``action`` at the root and keep the subtree under it (tree reuse).

        Raises:
            ValueError: ``action`` is not a legal point (empty, not forbidden) of the
                root position, or it ends the game.
        """
        if self._leaf_count:
            raise ValueError("cannot move the root while leaves await apply()")
        to_move = int(self._state[0])
        trial = self._cells.copy()
        if not 0 <= int(action) < self.game.cells or not is_legal_point(
            trial, *self._game[[0, 2]], int(action), to_move
        ):
            raise ValueError(
                f"action {action!r} is not a legal point of the root position"
            )
        if place_and_judge(trial, *self._game[:3], int(action), to_move) or (
            self._state[2] + 1 == self.game.cells
        ):
            raise ValueError(
                f"action {action} ends the game: there is nothing to search"
            )
        child = self._child_of(int(action))
        self._cells[:] = trial
        self._state[:] = (
            other_color(to_move),
            action,
            self._state[2] + 1,
        )
        if child < 0:
            clear_tree(self._tree, int(action))
        else:
            if self._spare is None:
                self._spare = allocate_tree(
                    self.config.max_nodes, self.config.max_edges
                )
            compact_subtree(self._tree, child, self._spare)
            self._tree, self._spare = self._spare, self._tree
        self._noise_due = self.config.dirichlet_fraction > 0

    def _child_of(self, action: int) -> int:
        start, count = self._tree.edge_start[0], self._tree.edge_count[0]
        if start < 0:
            return -1
        edges = slice(start, start + count)
        hits = np.flatnonzero(self._tree.edge_move[edges] == action)
        return int(self._tree.edge_child[edges][hits[0]]) if hits.size else -1

    @property
    def to_move(self) -> int:
        """Colour to move at the root."""
        return int(self._state[0])

    @property
    def root_cells(self) -> np.ndarray:
        """A copy of the root position's cells."""
        return self._cells.copy()

    @property
    def node_count(self) -> int:
        """Nodes in the tree (the root included)."""
        return int(self._tree.used[NODES_USED])

    @property
    def edge_count(self) -> int:
        """Edges in the tree."""
        return int(self._tree.used[EDGES_USED])

    @property
    def is_solved(self) -> bool:
        """Whether the root's result is proven (further simulations change nothing)."""
        return int(self._tree.status[0]) != UNKNOWN

    # --- running ------------------------------------------------------------------

    def run(
        self,
        simulations: int | None = None,
        time_limit: float | None = None,
        evaluator: Evaluator | None = None,
        batch: int = 1,
    ) -> int:
        """Search until ``simulations`` are done or ``time_limit`` seconds pass
        (whichever first; at least one must be given), or the root is solved.

        ``evaluator`` None plays random rollouts; otherwise each round gathers up to
        ``batch`` leaves for one ``evaluator.evaluate`` call. Returns simulations done.
        """
        if simulations is None and time_limit is None:
            raise ValueError("give simulations, time_limit or both")
        if batch < 1:
            raise ValueError(f"batch must be at least 1, got {batch!r}")
        target = simulations if simulations is not None else 2**62
        deadline = time.perf_counter() + time_limit if time_limit is not None else None
        done = 0
        chunk = 1 if self._noise_due else batch
        while done < target and not self.is_solved:
            step = min(chunk, target - done)
            started = time.perf_counter()
            done += self._round(step, evaluator, batch)
            self._add_noise_if_due()
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            chunk = self._next_chunk(
                step, now - started, deadline, now, batch, evaluator
            )
        return done

    def _next_chunk(self, step, elapsed, deadline, now, batch, evaluator) -> int:
        if evaluator is not None:
            return batch
        if deadline is None:
            return 2**30
        rate = step / max(elapsed, 1e-6)
        budget = min(_SECONDS_PER_CHUNK, deadline - now)
        return max(batch, int(rate * budget))

    def _round(self, simulations: int, evaluator: Evaluator | None, batch: int) -> int:
        if evaluator is None:
            done = int(
                run_rollouts(
                    self._tree,
                    self._cells,
                    self._game,
                    self._knobs,
                    self._state,
                    simulations,
                    batch,
                    self._kernel_rng,
                )
            )
            self.simulations += done
            return done
        from agents.search.batch import step_searches

        return step_searches([self], evaluator, min(batch, simulations))

    # --- the external-evaluator round ----------------------------------------------

    def gather(
        self, planes: np.ndarray, masks: np.ndarray, offset: int, max_leaves: int
    ) -> int:
        """Gather up to ``max_leaves`` leaves, writing their planes and legal masks into
        rows ``offset...`` of ``planes`` (B, H, W, C) int8 and ``masks`` (B, H*W) int8.

        Returns the number of leaves, which then await :meth:`apply`. Proven leaves met
        on the way are backed up at once and count in :attr:`last_round_proven`.
        """
        if self._leaf_count:
            raise ValueError("the previous gather() still awaits apply()")
        if self._leaves.size < max_leaves:
            self._leaves = np.empty(max_leaves, dtype=np.int32)
        found, proven = gather_leaves(
            self._tree,
            self._cells,
            self._game,
            self._knobs,
            self._state,
            max_leaves,
            self._leaves,
            self._kernel_rng,
        )
        write_leaf_inputs(
            self._tree,
            self._leaves,
            found,
            self._cells,
            self._game,
            self._state,
            planes,
            masks,
            offset,
        )
        self._leaf_count = int(found)
        self.last_round_proven = int(proven)
        self.simulations += int(proven)
        return int(found)

    def apply(self, priors: np.ndarray, values: np.ndarray, offset: int) -> None:
        """Expand and back up the gathered leaves with rows ``offset...`` of the
        evaluator's ``priors`` (B, H*W) float32 and ``values`` (B,) float32."""
        apply_evaluations(
            self._tree,
            self._leaves,
            self._leaf_count,
            self._cells,
            self._game,
            self._knobs,
            self._state,
            priors,
            values,
            offset,
            self._kernel_rng,
        )
        self.simulations += self._leaf_count
        self._leaf_count = 0
        self._add_noise_if_due()

    def _add_noise_if_due(self) -> None:
        start, count = self._tree.edge_start[0], self._tree.edge_count[0]
        if not self._noise_due or start < 0:
            return
        fraction = self.config.dirichlet_fraction
        noise = self._rng.dirichlet(np.full(count, self.config.dirichlet_alpha))
        priors = self._tree.edge_prior[start : start + count]
        priors[:] = (1 - fraction) * priors + fraction * noise
        self._noise_due = False

    # --- reading the result ---------------------------------------------------------

    def _root_children(self) -> tuple[np.ndarray, np.ndarray]:
        """(moves, child nodes or -1) of the root's edges."""
        start, count = self._tree.edge_start[0], self._tree.edge_count[0]
        if start < 0:
            return np.empty(0, np.int64), np.empty(0, np.int64)
        edges = slice(start, start + count)
        return self._tree.edge_move[edges].astype(np.int64), self._tree.edge_child[
            edges
        ]

    def visit_counts(self) -> np.ndarray:
        """Visits of each root move, as an int64 array over all cells."""
        counts = np.zeros(self.game.cells, dtype=np.int64)
        moves, children = self._root_children()
        opened = children >= 0
        counts[moves[opened]] = self._tree.visits[children[opened]]
        return counts

    def visit_distribution(self, temperature: float = 1.0) -> np.ndarray:
        """Root visits turned into a probability vector over cells (float32).

        Temperature 0 puts all mass on the chosen move (:meth:`best_action` rules);
        otherwise visits ** (1 / temperature), normalised.
        """
        if temperature < 0:
            raise ValueError(f"temperature must be at least 0, got {temperature!r}")
        distribution = np.zeros(self.game.cells, dtype=np.float64)
        if temperature == 0:
            distribution[self.best_action()] = 1.0
            return distribution.astype(np.float32)
        counts = self.visit_counts().astype(np.float64)
        proven = self._proven_root_moves()
        if proven is not None:
            counts = proven
        weights = counts ** (1.0 / temperature)
        total = weights.sum()
        if total <= 0:
            return self._uniform_root_distribution()
        return (weights / total).astype(np.float32)

    def _uniform_root_distribution(self) -> np.ndarray:
        distribution = np.zeros(self.game.cells, dtype=np.float32)
        moves, _ = self._root_children()
        if moves.size == 0:
            raise ValueError("the search has not expanded its root yet: run it first")
        distribution[moves] = 1.0 / moves.size
        return distribution

    def _proven_root_moves(self) -> np.ndarray | None:
        """Visit weights kept to proven wins (or to moves not proven lost), or None."""
        moves, children = self._root_children()
        status = np.where(children >= 0, self._tree.status[np.maximum(children, 0)], 0)
        visits = self.visit_counts()[moves].astype(np.float64) + 1.0
        for keep in (status == WIN, status != LOSS):
            if keep.any() and not keep.all():
                weights = np.zeros(self.game.cells, dtype=np.float64)
                weights[moves[keep]] = visits[keep]
                return weights
        return None

    def best_action(self) -> int:
        """The move to play: a proven win if any, else the most visited move that is not
        a proven loss (ties by value)."""
        moves, children = self._root_children()
        if moves.size == 0:
            raise ValueError("the search has not expanded its root yet: run it first")
        status = np.where(children >= 0, self._tree.status[np.maximum(children, 0)], 0)
        wins = np.flatnonzero(status == WIN)
        if wins.size:
            return int(moves[wins[0]])
        visits = np.where(children >= 0, self._tree.visits[np.maximum(children, 0)], 0)
        values = np.where(
            visits > 0,
            self._tree.value[np.maximum(children, 0)] / np.maximum(visits, 1),
            -2.0,
        )
        score = np.where(status == LOSS, -1, visits).astype(np.float64) + 1e-3 * values
        return int(moves[int(np.argmax(score))])

    def root_value(self) -> float:
        """Mean value of the root for the side to move, in [-1, 1] (±1 when proven)."""
        status = int(self._tree.status[0])
        if status != UNKNOWN:
            return {WIN: -1.0, LOSS: 1.0}.get(status, 0.0)
        visits = int(self._tree.visits[0])
        return float(-self._tree.value[0] / visits) if visits else 0.0

    def principal_variation(self, max_length: int = 10) -> list[int]:
        """The line of most-visited moves from the root (the chosen move first)."""
        line: list[int] = []
        node = 0
        while len(line) < max_length:
            start, count = self._tree.edge_start[node], self._tree.edge_count[node]
            if start < 0 or count == 0:
                break
            children = self._tree.edge_child[start : start + count]
            visits = np.where(
                children >= 0, self._tree.visits[np.maximum(children, 0)], -1
            )
            best = int(np.argmax(visits))
            if node == 0:
                best = int(
                    np.flatnonzero(
                        self._tree.edge_move[start : start + count]
                        == self.best_action()
                    )[0]
                )
            if children[best] < 0:
                break
            line.append(int(self._tree.edge_move[start + best]))
            node = int(children[best])
        return line
