"""One search core for pure MCTS and AlphaZero: a flat-array tree driven by numba.

The leaf evaluator is the seam. Random rollouts run inside the compiled loop (UCT, a
whole batch of simulations per call); anything else implements
:class:`agents.evaluator.Evaluator` and is called once per round of leaves.

One search, rollouts::

    from agents.search import SearchConfig, SearchTree
    tree = SearchTree(GameConfig(board_size=9), SearchConfig(), seed=0)
    tree.reset(board)                       # a gomoku_env.Board, game not over
    tree.run(simulations=2000, time_limit=1.0)
    action = tree.best_action()             # proven win first, then most visits
    tree.visit_counts(), tree.root_value(), tree.principal_variation()
    tree.advance(action)                    # tree reuse: keep the subtree under it

External evaluator (AlphaZero), many searches stepped together::

    config = SearchConfig(formula="puct", exploration=1.5,
                          dirichlet_alpha=0.3, dirichlet_fraction=0.25)
    trees = [SearchTree(game, config, seed=k) for k in range(64)]   # one per game
    for tree, board in zip(trees, boards):
        tree.reset(board)
    run_searches(trees, evaluator, simulations=800, leaves_per_search=8)
    pi = trees[0].visit_distribution(temperature=1.0)   # (H*W,) float32 target
    trees[0].advance(move_played)                        # reuse; noise re-applied

``step_searches(trees, evaluator, leaves_per_search)`` is one round of that: every tree
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
* ``tactical=True`` (default): a node whose side to move can win at once has only that
  move; one facing a win in one has only the blocking points.
* Dirichlet noise is mixed into the root priors when the root is first expanded, and
  again after :meth:`SearchTree.advance` (the new root's priors are clean).
* The tree holds at most ``max_nodes`` nodes and ``max_edges`` edges; when full it
  stops growing and keeps evaluating its leaves. ``advance`` copies the kept subtree to
  the front, so memory stays bounded over a game.
* A legal move is whatever :func:`agents.search.position_kernels.is_legal_point` says:
  the one hook for rules with forbidden points.
"""

from agents.search.batch import run_searches, step_searches
from agents.search.config import SearchConfig
from agents.search.tree import SearchTree

__all__ = ["SearchConfig", "SearchTree", "run_searches", "step_searches"]
