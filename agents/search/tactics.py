"""Forced wins inside the search: the VCF solver's verdicts at leaves and at the root.

With ``vcf_nodes > 0`` in the search's settings, every node is checked when it is
expanded, with the package's own solver (:mod:`agents.patterns.threats`):

* **A proven win.** When the side to move has a VCF (victory by continuous fours), the
  node gets the single edge that starts it, and is proven as a win in one is: the
  result is exact, no network guess and no rollout, and the MCTS-solver backs it up
  (a move into it is a proven loss for its mover).
* **The root's defence.** When the opponent has a VCF at the root, the root's edges are
  cut to the moves after which the opponent has none (as the alpha-beta agent does);
  when no move stops it, every move stays (the game is lost either way).

The solver works on a :class:`~agents.patterns.pattern_state.PatternState` of the root
position, which the tree keeps up to date move by move; a leaf's moves are placed on
it for the check and taken back after, so a check costs the path's few incremental
updates plus the solver's nodes. Leaves get ``vcf_nodes`` solver nodes;
the root, searched once a move, gets
:data:`~agents.patterns.threats.ROOT_VCF_NODES`; both seek VCFs of up to
:data:`~agents.patterns.threats.VCF_PLIES` plies, as the alpha-beta agent does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.patterns.pattern_state import (
    COUNT_FIVES,
    PatternState,
    new_state,
    place,
    remove,
)
from agents.patterns.threats import (
    ROOT_VCF_NODES,
    VCF_PLIES,
    find_vcf,
    refuting_moves,
    side_of,
)
from agents.search.arrays import TreeArrays
from gomoku_env.config import GameConfig
from gomoku_env.kernels import other_color

MIN_REFUTATION_NODES = 100
"""The fewest solver nodes a root candidate gets to show that it stops the
opponent's VCF (a check that runs out keeps the move)."""


@njit(cache=True, nogil=True)
def _node_path(tree: TreeArrays, node: int, moves: np.ndarray) -> int:
    """The moves from the root down to ``node``, leaf first, in ``moves``; the count."""
    depth = 0
    while tree.parent[node] >= 0:
        moves[depth] = tree.move[node]
        depth += 1
        node = tree.parent[node]
    return depth


@njit(cache=True, nogil=True)
def vcf_start(
    tree: TreeArrays,
    node: int,
    patterns: PatternState,
    to_move: int,
    node_limit: int,
) -> int:
    """The first move of a VCF for ``to_move`` at ``node``, or -1 if none is found
    within ``node_limit`` solver nodes. ``patterns`` holds the root position; the
    node's moves are placed on it and taken back before returning."""
    moves = np.empty(patterns.cells.size, dtype=np.int64)
    depth = _node_path(tree, node, moves)
    color = to_move if depth % 2 == 0 else other_color(to_move)
    for k in range(depth - 1, -1, -1):
        place(patterns, moves[k], color)
        color = other_color(color)
    line = np.empty(VCF_PLIES + 1, dtype=np.int64)
    length, _ = find_vcf(patterns, to_move, VCF_PLIES, node_limit, line)
    for k in range(depth):
        remove(patterns, moves[k])
    return int(line[0]) if length > 0 else -1


@njit(cache=True, nogil=True)
def root_defence(
    patterns: PatternState, to_move: int, points: np.ndarray, count: int
) -> int:
    """Cut the root's candidate ``points[:count]`` to those that stop the opponent's VCF,
    in place, when the opponent has one; returns the new count (``count`` unchanged
    when the opponent has no VCF, must be blocked already, or cannot be stopped)."""
    opponent = other_color(to_move)
    if patterns.counts[side_of(opponent), COUNT_FIVES] > 0 or count == 0:
        return count
    line = np.empty(VCF_PLIES + 1, dtype=np.int64)
    length, _ = find_vcf(patterns, opponent, VCF_PLIES, ROOT_VCF_NODES, line)
    if length == 0:
        return count
    candidates = points[:count].astype(np.int64)
    per_move = max(MIN_REFUTATION_NODES, ROOT_VCF_NODES // count)
    kept = refuting_moves(patterns, to_move, candidates, VCF_PLIES, per_move)
    if kept.size == 0:
        return count
    points[: kept.size] = kept
    return kept.size


@njit(cache=True, nogil=True)
def root_has_threats(patterns: PatternState, to_move: int) -> bool:
    """Whether either side has a VCF in the root position (``ROOT_VCF_NODES`` each):
    a root kept from an earlier search was expanded with a leaf's smaller check and
    without the defence, so it is expanded afresh."""
    line = np.empty(VCF_PLIES + 1, dtype=np.int64)
    for color in (to_move, other_color(to_move)):
        length, _ = find_vcf(patterns, color, VCF_PLIES, ROOT_VCF_NODES, line)
        if length > 0:
            return True
    return False


def root_patterns(cells: np.ndarray, game: GameConfig, vcf_nodes: int) -> PatternState:
    """The pattern state the checks read for the root ``cells`` of ``game``; an empty
    stand-in (never read) when ``vcf_nodes`` is 0, so searches without checks pay
    nothing for it."""
    rule_code = int(game.rule.code)
    if vcf_nodes > 0:
        return new_state(cells, game.board_size, game.win_length, rule_code)
    return PatternState(
        size=0,
        win_length=game.win_length,
        rule_code=rule_code,
        cells=np.zeros(0, dtype=np.int8),
        shapes=np.zeros((2, 0, 4), dtype=np.int8),
        scores=np.zeros((2, 0), dtype=np.int64),
        totals=np.zeros(2, dtype=np.int64),
        counts=np.zeros((2, 3), dtype=np.int64),
        four_flags=np.zeros((2, 0), dtype=np.bool_),
        near=np.zeros(0, dtype=np.int16),
        table=np.zeros((1, 1), dtype=np.int8),
    )
