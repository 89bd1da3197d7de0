"""SearchTree: one Monte Carlo tree search over a Gomoku position.

Python holds the root position; the tree and every per-simulation step live in
compiled kernels (:mod:`agents.search.rounds`), which read the game and the search's
knobs from one :class:`agents.search.settings.SearchSettings`. The tree offers the two
kinds of round: :meth:`SearchTree.play_rollouts` (whole batches of simulations in one
compiled call) and :meth:`SearchTree.gather` → ``evaluator.evaluate`` →
:meth:`SearchTree.apply`. Which one runs, and how often, is the evaluator's and the
driver's business (:mod:`agents.search.driver`); reading the result is
:mod:`agents.search.results`.
"""

from __future__ import annotations

import numpy as np

from agents.patterns.pattern_state import place
from agents.search import results
from agents.search.arrays import (
    EDGES_USED,
    NODES_USED,
    UNKNOWN,
    TreeArrays,
    allocate_tree,
    clear_tree,
    compact_subtree,
    new_random_state,
)
from agents.search.position_kernels import is_legal_point
from agents.search.rounds import (
    NO_ROOT_PLAN,
    apply_evaluations,
    gather_leaf_inputs,
    run_rollouts,
)
from agents.search.sequential_halving import SequentialHalving
from agents.search.settings import (
    MAX_TREE_EDGES,
    MCTS_PRESET,
    ROLLOUTS,
    SearchOptions,
    SearchSettings,
)
from agents.search.tactics import root_has_threats, root_patterns
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.kernels import BLACK, other_color, place_and_judge


class SearchTree:
    """A search tree over one position; see :mod:`agents.search` for the workflow.

    Args:
        game: the game's rules (board size, win length, rule).
        options: search knobs (:data:`agents.search.settings.MCTS_PRESET` when
            None); a ``formula`` left None is UCT (the tree's rollouts).
        seed: seeds the search's randomness (edge order, rollouts, root noise).
    """

    def __init__(
        self,
        game: GameConfig,
        options: SearchOptions | None = None,
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.options = options if options is not None else MCTS_PRESET
        self.settings = search_settings(game, self.options)
        edges_per_node = self.options.edges_per_node or game.cells
        self.max_edges = self.options.max_nodes * edges_per_node
        if self.max_edges > MAX_TREE_EDGES:
            raise ValueError(
                f"max_nodes={self.options.max_nodes} times {edges_per_node} edges per "
                f"node is {self.max_edges:,} edges, over the tree's {MAX_TREE_EDGES:,}"
                " (lower max_nodes or edges_per_node)"
            )
        self._tree = allocate_tree(self.options.max_nodes, self.max_edges)
        self._spare = None
        self._cells = np.zeros(game.cells, dtype=np.int8)
        self._state = np.array([BLACK, -1, 0], dtype=np.int64)
        self._leaves = np.empty(0, dtype=np.int32)
        self._leaf_count = 0
        self._halving_request: tuple[int, int] | None = None  # (stop, actions)
        self._halving: SequentialHalving | None = None
        self.last_round_proven = 0
        self.simulations = 0
        self.reseed(seed)
        self.reset(Board(game))

    def reseed(self, seed: int | None) -> None:
        """Restart the search's random streams from ``seed``."""
        self._rng = np.random.default_rng(seed)
        self._kernel_rng = new_random_state(int(self._rng.integers(2**62)))

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
        self._patterns = root_patterns(self._cells, self.game, self.settings.vcf_nodes)
        last = board.last_move
        self._state[:] = (board.to_move, -1 if last is None else last, len(board.moves))
        clear_tree(self._tree, -1)
        self._leaf_count = 0
        self._noise_due = self.options.dirichlet_fraction > 0
        self._halving_request = self._halving = None

    def advance(self, action: int) -> None:
        """Play ``action`` at the root and keep the subtree under it (tree reuse).

        Raises:
            ValueError: ``action`` is not a legal point (empty, not forbidden) of the
                root position, or it ends the game.
        """
        if self._leaf_count:
            raise ValueError("cannot move the root while leaves await apply()")
        settings, to_move = self.settings, int(self._state[0])
        size, rule_code = settings.board_size, settings.rule_code
        trial = self._cells.copy()
        if not 0 <= int(action) < self.game.cells or not is_legal_point(
            trial, size, rule_code, int(action), to_move
        ):
            raise ValueError(
                f"action {action!r} is not a legal point of the root position"
            )
        if place_and_judge(
            trial, size, settings.win_length, rule_code, int(action), to_move
        ) or (self._state[2] + 1 == self.game.cells):
            raise ValueError(
                f"action {action} ends the game: there is nothing to search"
            )
        child = self.child_of(int(action))
        self._cells[:] = trial
        self._state[:] = (
            other_color(to_move),
            action,
            self._state[2] + 1,
        )
        if settings.vcf_nodes > 0:
            place(self._patterns, int(action), to_move)
            if root_has_threats(self._patterns, other_color(to_move)):
                child = -1  # expand the root afresh, with the root's checks
        self._keep_subtree(child, int(action))
        self._noise_due = self.options.dirichlet_fraction > 0
        self._halving_request = self._halving = None

    def _keep_subtree(self, child: int, action: int) -> None:
        """Make ``child`` (-1: none yet) the root, reached by ``action``."""
        if child < 0:
            clear_tree(self._tree, action)
            return
        if self._spare is None:
            self._spare = allocate_tree(self.options.max_nodes, self.max_edges)
        compact_subtree(self._tree, child, self._spare)
        self._tree, self._spare = self._spare, self._tree

    def child_of(self, action: int) -> int:
        """The root's child node reached by ``action``; -1 if it is not in the tree."""
        moves, children = results.root_children(self._tree)
        hits = np.flatnonzero(moves == action)
        return int(children[hits[0]]) if hits.size else -1

    @property
    def arrays(self) -> TreeArrays:
        """The tree's flat arrays (read them, do not write them)."""
        return self._tree

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

    @property
    def noise_due(self) -> bool:
        """Whether Dirichlet noise waits for the root's expansion."""
        return self._noise_due

    # --- a Gumbel root (see agents.search.sequential_halving) -----------------------

    def halve_root(self, simulations: int, actions: int) -> None:
        """Let the next ``simulations`` of this position start their descents as
        sequential halving over ``actions`` Gumbel-sampled root moves says (PUCT
        below the root; :meth:`gather` only). The schedule starts once the root is
        expanded, and ends when the root moves.

        Raises:
            ValueError: ``simulations`` or ``actions`` is below 1, or the search has
                no evaluator's priors to sample from (UCT).
        """
        if self.options.formula != "puct":
            raise ValueError(
                f"a Gumbel root needs PUCT over an evaluator's priors, not formula "
                f"{self.options.formula!r}"
            )
        if int(simulations) < 1 or int(actions) < 1:
            raise ValueError(
                f"halve_root needs simulations and actions >= 1, got {simulations!r} "
                f"and {actions!r}"
            )
        self._halving_request = (self.simulations + int(simulations), int(actions))
        self._halving = None

    @property
    def halving(self) -> SequentialHalving | None:
        """The root's sequential halving once it has begun (None before, or without
        :meth:`halve_root`): its ``chosen_move()`` and ``improved_policy(cells)``."""
        return self._halving

    def _root_plan(self, max_leaves: int) -> np.ndarray:
        """The first moves of the next round's descents (empty: selected)."""
        if self._halving_request is None or self._tree.edge_start[0] < 0:
            return NO_ROOT_PLAN
        if self._halving is None:
            stop, actions = self._halving_request
            self._halving = SequentialHalving(
                self._tree, max(stop - self.simulations, 1), actions, self._rng
            )
        return self._halving.next_moves(max_leaves)

    # --- the two kinds of round ------------------------------------------------------

    def play_rollouts(self, simulations: int) -> int:
        """Up to ``simulations`` simulations valued by rollouts of the options'
        ``rollout`` kind, in one compiled call gathering the options'
        ``leaves_per_round`` leaves per round; the number run."""
        if self._leaf_count:
            raise ValueError("the previous gather() still awaits apply()")
        found = run_rollouts(
            self._tree, self._cells, self.settings, self._state, simulations,
            self.options.leaves_per_round, self._kernel_rng, self._patterns,
        )  # fmt: skip
        done = int(found)
        self.simulations += done
        self._add_noise_if_due()
        return done

    def gather(
        self, planes: np.ndarray, masks: np.ndarray, offset: int, max_leaves: int
    ) -> int:
        """Gather up to ``max_leaves`` leaves, writing their planes and legal masks into
        rows ``offset...`` of ``planes`` (B, H, W, C) int8 and ``masks`` (B, H*W) int8.

        After :meth:`halve_root`, the round's descents start with the schedule's
        moves, one each, and the round ends with them.

        Returns the number of leaves, which then await :meth:`apply`. Proven leaves met
        on the way are backed up at once and count in :attr:`last_round_proven`.
        """
        if self._leaf_count:
            raise ValueError("the previous gather() still awaits apply()")
        if self._leaves.size < max_leaves:
            self._leaves = np.empty(max_leaves, dtype=np.int32)
        found, proven = gather_leaf_inputs(
            self._tree, self._cells, self.settings, self._state,
            self._leaves[:max_leaves], planes, masks, offset, self._kernel_rng,
            self._root_plan(max_leaves),
        )  # fmt: skip
        self._leaf_count = int(found)
        self.last_round_proven = int(proven)
        self.simulations += int(proven)
        return int(found)

    def apply(self, priors: np.ndarray, values: np.ndarray, offset: int) -> None:
        """Expand and back up the gathered leaves with rows ``offset...`` of the
        evaluator's ``priors`` (B, H*W) float32 and ``values`` (B,) float32."""
        apply_evaluations(
            self._tree, self._leaves, self._leaf_count, self._cells, self.settings,
            self._state, priors, values, offset, self._kernel_rng, self._patterns,
        )  # fmt: skip
        self.simulations += self._leaf_count
        self._leaf_count = 0
        self._add_noise_if_due()

    def _add_noise_if_due(self) -> None:
        start, count = self._tree.edge_start[0], self._tree.edge_count[0]
        if not self._noise_due or start < 0:
            return
        fraction = self.options.dirichlet_fraction
        noise = self._rng.dirichlet(np.full(count, self.options.dirichlet_alpha))
        priors = self._tree.edge_prior[start : start + count]
        priors[:] = (1 - fraction) * priors + fraction * noise
        self._noise_due = False

    # --- the result (see agents.search.results) -------------------------------------

    def visit_counts(self) -> np.ndarray:
        """Visits of each root move, as an int64 array over all cells."""
        return results.visit_counts(self._tree, self.game.cells)

    def visit_distribution(self, temperature: float = 1.0) -> np.ndarray:
        """Root visits as a probability vector over cells (float32); temperature 0
        puts all mass on :meth:`best_action`, otherwise visits ** (1 / temperature)."""
        return results.visit_distribution(self._tree, self.game.cells, temperature)

    def best_action(self) -> int:
        """The move to play: a proven win if any, else the most visited move that is not
        a proven loss (ties by value)."""
        return results.best_action(self._tree)

    def root_value(self) -> float:
        """Mean value of the root for the side to move, in [-1, 1] (±1 when proven)."""
        return results.root_value(self._tree)

    def principal_variation(self, max_length: int = 10) -> list[int]:
        """The line of most-visited moves from the root (the chosen move first)."""
        return results.principal_variation(self._tree, max_length)


def search_settings(game: GameConfig, options: SearchOptions) -> SearchSettings:
    """The settings of a search of ``game`` with ``options`` (a formula left None is
    UCT: the tree's own rounds are rollouts)."""
    return SearchSettings(
        board_size=int(game.board_size),
        win_length=int(game.win_length),
        rule_code=int(game.rule.code),
        distance=int(options.distance),
        tactical=bool(options.tactical),
        vcf_nodes=int(options.vcf_nodes),
        puct=options.formula == "puct",
        exploration=float(options.exploration),
        fpu=float(options.fpu),
        virtual_loss=float(options.virtual_loss),
        rollout_code=ROLLOUTS.index(options.rollout),
    )
