"""Expanding a leaf: which moves become edges, with which priors.

With ``tactical`` on (the default), a leaf whose side to move can win at once gets that
single winning edge and is proven; a leaf whose opponent threatens to win at once gets
only the blocking points as edges. With ``vcf_nodes`` a forced win by fours is proven
the same way (:mod:`agents.search.tactics`). Otherwise the edges are the candidate points (all
legal points, or those within ``distance`` of a stone). Priors come from an evaluator's
row over all cells, renormalised over the edges, or are uniform.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.patterns.pattern_state import PatternState
from agents.patterns.threats import ROOT_VCF_NODES
from agents.search.arrays import (
    EDGES_USED,
    LOSS,
    WIN,
    TreeArrays,
    new_node,
    random_below,
)
from agents.search.position_kernels import (
    candidate_mask,
    is_legal_point,
    legal_mask_into,
    winning_points,
)
from agents.search.settings import SearchSettings
from agents.search.tactics import root_defence, vcf_start
from gomoku_env.kernels import BLACK, RENJU, other_color


@njit(cache=True, nogil=True)
def forced_points(
    cells: np.ndarray,
    size: int,
    win_length: int,
    rule_code: int,
    to_move: int,
    points: np.ndarray,
) -> int:
    """Points the side to move must consider, written into ``points``.

    A win in one gives count 1 (the first winning point); otherwise the legal blocks of
    the opponent's wins in one give a negative count (negated); 0 when neither.
    """
    wins = winning_points(cells, size, win_length, rule_code, to_move, points)
    if wins > 0:
        return 1
    threats = winning_points(
        cells, size, win_length, rule_code, other_color(to_move), points
    )
    blocks = 0
    for k in range(threats):
        if is_legal_point(cells, size, rule_code, points[k], to_move):
            points[blocks] = points[k]
            blocks += 1
    return -blocks


@njit(cache=True, nogil=True)
def candidate_points(
    cells: np.ndarray,
    size: int,
    rule_code: int,
    to_move: int,
    distance: int,
    points: np.ndarray,
) -> int:
    """The candidate points of the side to move, listed in ``points``; the count."""
    count = 0
    if distance <= 0 and (rule_code != RENJU or to_move != BLACK):
        # Nothing is forbidden: the point-by-point rule, inlined, is one compare.
        for action in range(cells.size):
            if is_legal_point(cells, size, rule_code, action, to_move):
                points[count] = action
                count += 1
        return count
    mask = np.empty(cells.size, dtype=np.int8)
    if candidate_mask(cells, size, rule_code, to_move, distance, mask) == 0:
        legal_mask_into(cells, size, rule_code, to_move, mask)
    for action in range(cells.size):
        if mask[action]:
            points[count] = action
            count += 1
    return count


@njit(cache=True, nogil=True)
def shuffle_points(points: np.ndarray, count: int, rng: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``points[:count]`` (UCT opens edges in this order)."""
    for k in range(count - 1, 0, -1):
        j = random_below(rng, k + 1)
        points[k], points[j] = points[j], points[k]


@njit(cache=True, nogil=True)
def write_edges(
    tree: TreeArrays, node: int, points: np.ndarray, count: int, priors: np.ndarray
) -> bool:
    """Give ``node`` one edge per point, priors from ``priors`` (uniform if empty or all
    zero on the points); False when the edge arrays are full."""
    start = tree.used[EDGES_USED]
    if start + count > tree.edge_move.size:
        return False
    total = 0.0
    if priors.size > 0:
        for k in range(count):
            total += max(priors[points[k]], 0.0)
    for k in range(count):
        tree.edge_move[start + k] = points[k]
        tree.edge_child[start + k] = -1
        if total > 0.0:
            tree.edge_prior[start + k] = max(priors[points[k]], 0.0) / total
        else:
            tree.edge_prior[start + k] = 1.0 / count
    tree.used[EDGES_USED] = start + count
    tree.edge_start[node] = start
    tree.edge_count[node] = count
    return True


@njit(cache=True, nogil=True, inline="always")
def expand_with_win(tree: TreeArrays, node: int, points: np.ndarray) -> bool:
    """Give ``node`` the single winning edge ``points[0]``: its child is created WIN
    and ``node`` proven LOSS. False when the arrays are full."""
    child = new_node(tree, node, points[0])
    if child < 0 or not write_edges(tree, node, points, 1, np.empty(0, np.float32)):
        return False
    tree.edge_child[tree.edge_start[node]] = child
    tree.tried[node] = 1
    tree.status[child] = WIN
    tree.status[node] = LOSS
    return True


@njit(cache=True, nogil=True)
def expand_node(
    tree: TreeArrays,
    node: int,
    cells: np.ndarray,
    settings: SearchSettings,
    to_move: int,
    priors: np.ndarray,
    rng: np.ndarray,
    patterns: PatternState,
) -> bool:
    """Create the edges of leaf ``node`` (position ``cells``, ``to_move`` to play).

    A win in one is proven at once (with ``settings.tactical``): its child is created
    with status WIN and ``node`` becomes LOSS. With ``settings.vcf_nodes`` a VCF is
    proven the same way, and the root's edges are cut to the moves that stop the
    opponent's VCF (:mod:`agents.search.tactics`; ``patterns`` holds the root
    position). Under PUCT the edges are shuffled, since PUCT breaks ties by edge order
    (UCT draws its unvisited edges at random anyway). Returns False (node left
    unexpanded) when the arrays are full or no move exists.
    """
    size, rule_code = settings.board_size, settings.rule_code
    points = np.empty(cells.size, dtype=np.int32)
    forced = 0
    if settings.tactical:
        forced = forced_points(
            cells, size, settings.win_length, rule_code, to_move, points
        )
    if forced > 0:
        return expand_with_win(tree, node, points)
    checks = settings.vcf_nodes > 0
    if checks:
        budget = ROOT_VCF_NODES if node == 0 else settings.vcf_nodes
        start = vcf_start(tree, node, patterns, to_move, budget)
        if start >= 0:
            points[0] = start
            return expand_with_win(tree, node, points)
    count = -forced
    if count == 0:
        count = candidate_points(
            cells, size, rule_code, to_move, settings.distance, points
        )
        if checks and node == 0:
            count = root_defence(patterns, to_move, points, count)
    if count == 0:
        return False
    if settings.puct:
        shuffle_points(points, count, rng)
    return write_edges(tree, node, points, count, priors)
