"""One search core for pure MCTS and AlphaZero: a flat-array tree driven by numba.

The leaf evaluator is the seam, an object passed to the search (as in OpenSpiel): with
none (``None``) each tree values its leaves by rollouts inside the compiled loop (a
whole batch of simulations per call, of the options' ``rollout`` kind); anything else
implements :class:`Evaluator` (priors and values for a batch of positions:
:class:`PatternEvaluator`, :class:`agents.alphazero.evaluator.NetworkEvaluator`) and is
called once per round of leaves. One driver, :func:`run_searches`, runs any number of
trees to their budget (``simulations``, ``time``) and owns it
(:mod:`agents.search.driver`); the MCTS agent and self-play both call it.
:class:`SearchOptions` holds the tree's knobs, each declared once (the agents' defaults
are its presets); the tree turns them and the game's rules into one
:class:`agents.search.settings.SearchSettings` that the kernels read by name.

One search, rollouts:

>>> from gomoku_env import Board, GameConfig
>>> from agents.search import SearchOptions, SearchTree, run_searches
>>> game = GameConfig(board_size=9)
>>> tree = SearchTree(game, SearchOptions(distance=2, rollout="tactical"), seed=0)
>>> tree.reset(Board.from_moves([40, 41], game))   # a position, game not over
>>> run_searches([tree], None, simulations=500)     # None: the tree's rollouts
[500]
>>> action = tree.best_action()             # proven win first, then most visits
>>> int(tree.visit_counts().sum()) <= 500 and -1 <= tree.root_value() <= 1
True
>>> tree.principal_variation()[0] == action
True
>>> tree.advance(action)                    # tree reuse: keep the subtree under it
>>> tree.node_count > 1
True

Many searches stepped together, one evaluator call per round (AlphaZero self-play):

>>> from agents.search import PatternEvaluator
>>> options = SearchOptions(formula="puct", exploration=1.5, leaves_per_round=8,
...                         dirichlet_alpha=0.3, dirichlet_fraction=0.25)
>>> trees = [SearchTree(game, options, seed=k) for k in range(4)]   # one per game
>>> run_searches(trees, PatternEvaluator(game), simulations=64)
[64, 64, 64, 64]
>>> pi = trees[0].visit_distribution(temperature=1.0)   # (H*W,) float32 target
>>> round(float(pi.sum()), 4)
1.0

``step_searches(trees, evaluator, leaves_per_round)`` is one round of that: every tree
gathers up to B leaves (descents kept apart by virtual loss; a descent that meets a leaf
already pending ends the tree's gathering for the round), the leaves' planes are
written straight into one buffer, ``evaluator.evaluate(planes, masks)`` is called ONCE
with planes (N, H, W, C) int8 channels-last built exactly like the env's observation
(:func:`gomoku_env.planes.write_planes`, from the side to move) and masks
(N, H*W) int8 of legal moves, and each tree expands its leaves with its rows of
``priors`` (N, H*W) and backs up ``values`` (N,) (for the side to move at the leaf).
The same round, by hand: ``n = tree.gather(planes, masks, offset, B)`` then
``tree.apply(priors, values, offset)``.

Semantics:

* Values are in [-1, 1] for the side to move at a leaf and negated per ply on the way
  up; wins and losses found by the rules (:func:`gomoku_env.kernels.place_and_judge`,
  every rule) are exact, draws (full board) are 0. Proven results propagate up
  (a child that wins proves its parent lost, all children lost prove it won) and a
  proven root stops the search.
* ``SearchOptions.formula`` picks UCT or PUCT; left None it follows the evaluator
  (:meth:`SearchOptions.for_evaluator`): UCT over rollouts, PUCT over priors.
* ``tactical=True`` (default): a node whose side to move can win at once has only that
  move; one facing a win in one has only the blocking points.
* Dirichlet noise is mixed into the root priors when the root is first expanded, and
  again after :meth:`SearchTree.advance` (the new root's priors are clean).
* The tree holds at most ``max_nodes`` nodes and ``max_nodes * edges_per_node``
  edges; when full it
  stops growing and keeps evaluating its leaves. ``advance`` copies the kept subtree to
  the front, so memory stays bounded over a game.
* A legal move is whatever :func:`agents.search.position_kernels.is_legal_point` says:
  the one hook for rules with forbidden points.
"""

from agents.search.driver import (
    Evaluator,
    run_searches,
    search_target,
    step_searches,
)
from agents.search.pattern_evaluator import PatternEvaluator
from agents.search.settings import (
    ALPHAZERO_PRESET,
    MCTS_PRESET,
    SELF_PLAY_PRESET,
    SearchOptions,
)
from agents.search.tree import SearchTree

__all__ = [
    "ALPHAZERO_PRESET",
    "MCTS_PRESET",
    "SELF_PLAY_PRESET",
    "Evaluator",
    "PatternEvaluator",
    "SearchOptions",
    "SearchTree",
    "run_searches",
    "search_target",
    "step_searches",
]
