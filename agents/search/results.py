"""Reading a search's result at the root: visits, the move to play, its value, its line.

Pure functions of the tree arrays; :class:`agents.search.SearchTree` exposes them as
methods. Proven results outrank visits: a proven win is played whatever its visits,
a proven loss only when every move loses.
"""

from __future__ import annotations

import numpy as np

from agents.search.arrays import LOSS, UNKNOWN, WIN, TreeArrays


def root_children(tree: TreeArrays) -> tuple[np.ndarray, np.ndarray]:
    """(moves, child nodes or -1) of the root's edges; empty before the first round."""
    start, count = tree.edge_start[0], tree.edge_count[0]
    if start < 0:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    edges = slice(start, start + count)
    return tree.edge_move[edges].astype(np.int64), tree.edge_child[edges]


def _child_field(field: np.ndarray, children: np.ndarray, missing: float) -> np.ndarray:
    """``field`` of each child node, ``missing`` where the edge has no child yet."""
    return np.where(children >= 0, field[np.maximum(children, 0)], missing)


def _expanded_root(tree: TreeArrays) -> tuple[np.ndarray, np.ndarray]:
    moves, children = root_children(tree)
    if moves.size == 0:
        raise ValueError("the search has not expanded its root yet: run it first")
    return moves, children


def visit_counts(tree: TreeArrays, cells: int) -> np.ndarray:
    """Visits of each root move, as an int64 array over all ``cells``."""
    counts = np.zeros(cells, dtype=np.int64)
    moves, children = root_children(tree)
    opened = children >= 0
    counts[moves[opened]] = tree.visits[children[opened]]
    return counts


def best_action(tree: TreeArrays) -> int:
    """A proven win if any, else the most visited move that is not a proven loss (ties
    by value)."""
    moves, children = _expanded_root(tree)
    status = _child_field(tree.status, children, UNKNOWN)
    wins = np.flatnonzero(status == WIN)
    if wins.size:
        return int(moves[wins[0]])
    visits = _child_field(tree.visits, children, 0)
    totals = _child_field(tree.value, children, 0.0)
    values = np.where(visits > 0, totals / np.maximum(visits, 1), -2.0)
    score = np.where(status == LOSS, -1, visits).astype(np.float64) + 1e-3 * values
    return int(moves[int(np.argmax(score))])


def _proven_root_moves(tree: TreeArrays, cells: int) -> np.ndarray | None:
    """Visit weights kept to proven wins (or to moves not proven lost), or None."""
    moves, children = root_children(tree)
    status = _child_field(tree.status, children, UNKNOWN)
    visits = visit_counts(tree, cells)[moves].astype(np.float64) + 1.0
    for keep in (status == WIN, status != LOSS):
        if keep.any() and not keep.all():
            weights = np.zeros(cells, dtype=np.float64)
            weights[moves[keep]] = visits[keep]
            return weights
    return None


def visit_distribution(
    tree: TreeArrays, cells: int, temperature: float = 1.0
) -> np.ndarray:
    """Root visits as a probability vector over ``cells`` (float32).

    Temperature 0 puts all mass on :func:`best_action`; otherwise visits **
    (1 / temperature), normalised, kept to the proven wins when there are any and off
    the proven losses; uniform over the root's moves when nothing was visited.
    """
    if temperature < 0:
        raise ValueError(f"temperature must be at least 0, got {temperature!r}")
    distribution = np.zeros(cells, dtype=np.float64)
    if temperature == 0:
        distribution[best_action(tree)] = 1.0
        return distribution.astype(np.float32)
    counts = _proven_root_moves(tree, cells)
    if counts is None:
        counts = visit_counts(tree, cells).astype(np.float64)
    weights = counts ** (1.0 / temperature)
    if weights.sum() <= 0:
        moves, _ = _expanded_root(tree)
        weights[moves] = 1.0
    return (weights / weights.sum()).astype(np.float32)


def root_value(tree: TreeArrays) -> float:
    """Mean value of the root for the side to move, in [-1, 1] (±1 when proven)."""
    status = int(tree.status[0])
    if status != UNKNOWN:
        return {WIN: -1.0, LOSS: 1.0}.get(status, 0.0)
    visits = int(tree.visits[0])
    return float(-tree.value[0] / visits) if visits else 0.0


def principal_variation(tree: TreeArrays, max_length: int = 10) -> list[int]:
    """The line of most-visited moves from the root, :func:`best_action` first."""
    line: list[int] = []
    node = 0
    while len(line) < max_length:
        start, count = tree.edge_start[node], tree.edge_count[node]
        if start < 0 or count == 0:
            break
        moves = tree.edge_move[start : start + count]
        children = tree.edge_child[start : start + count]
        if node == 0:
            best = int(np.flatnonzero(moves == best_action(tree))[0])
        else:
            best = int(np.argmax(_child_field(tree.visits, children, -1)))
        if children[best] < 0:
            break
        line.append(int(moves[best]))
        node = int(children[best])
    return line
