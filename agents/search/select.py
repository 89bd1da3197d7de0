"""Selection, virtual loss, backup and proof propagation on the flat tree.

Values are from the point of view of the player who moved into a node, so a parent
takes the child with the best score. UCT (uniform priors) opens unvisited edges first,
in the shuffled order of expansion, then maximises Q + c·sqrt(ln N / n); PUCT maximises
Q + c·P·sqrt(N) / (1 + n) with unvisited edges valued at the first-play urgency ``fpu``.
A descent adds one visit and a loss of ``virtual_loss`` to every node on its path, so
leaves gathered in one round spread out; the backup replaces the loss by the value.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from agents.search.arrays import (
    DRAW,
    LOSS,
    UNKNOWN,
    WIN,
    TreeArrays,
    new_node,
    random_below,
)
from agents.search.settings import SearchSettings
from gomoku_env.kernels import other_color, place_and_judge

# What a descent ended on.
LEAF_NEW = 0  # an unexpanded node: evaluate it, then expand it
LEAF_PROVEN = 1  # a node whose result is proven: back up that result
LEAF_COLLISION = 2  # a node already waiting for an evaluation in this round
LEAF_FULL = 3  # no room for a new node: evaluate the expanded node again

# Layout of the int64 ``state`` array: the root position and the descent's end.
TO_MOVE, LAST_MOVE, STONES, LEAF_KIND = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def proven_value(status: int) -> float:
    """The value of a proven node for the player who moved into it."""
    if status == WIN:
        return 1.0
    if status == LOSS:
        return -1.0
    return 0.0


@njit(cache=True, nogil=True)
def open_random_edge(tree: TreeArrays, node: int, rng: np.ndarray) -> int:
    """UCT's next unvisited edge: a random one among the untried, swapped to the front
    of them (a Fisher-Yates shuffle done one step at a time, as edges are needed)."""
    start, count, tried = tree.edge_start[node], tree.edge_count[node], tree.tried[node]
    first = start + tried
    other = first + random_below(rng, count - tried)
    tree.edge_move[first], tree.edge_move[other] = (
        tree.edge_move[other],
        tree.edge_move[first],
    )
    tree.edge_prior[first], tree.edge_prior[other] = (
        tree.edge_prior[other],
        tree.edge_prior[first],
    )
    return first


@njit(cache=True, nogil=True)
def select_edge(
    tree: TreeArrays, node: int, settings: SearchSettings, rng: np.ndarray
) -> int:
    """The edge to follow from expanded ``node``; -1 if every child is a proven loss."""
    start, count = tree.edge_start[node], tree.edge_count[node]
    uct = not settings.puct
    if uct and tree.tried[node] < count:
        return open_random_edge(tree, node, rng)
    parent_visits = max(tree.visits[node], 1)
    scale = math.log(parent_visits) if uct else math.sqrt(parent_visits)
    explore = settings.exploration * math.sqrt(scale)
    best, best_score = -1, -math.inf
    for edge in range(start, start + count):
        child = tree.edge_child[edge]
        visits, q = 0, settings.fpu
        if child >= 0:
            if tree.status[child] == WIN:
                return edge
            if tree.status[child] == LOSS:
                continue
            visits = tree.visits[child]
            if visits > 0:
                q = tree.mean[child]
        if uct:
            score = q + explore * tree.inv_sqrt[child] if visits else math.inf
        else:
            score = q + settings.exploration * tree.edge_prior[edge] * scale / (
                1 + visits
            )
        if score > best_score:
            best, best_score = edge, score
    return best


@njit(cache=True, nogil=True)
def edge_of_move(tree: TreeArrays, node: int, move: int) -> int:
    """The edge of expanded ``node`` that plays ``move``; -1 if none (or move -1)."""
    if move < 0:
        return -1
    start = tree.edge_start[node]
    for edge in range(start, start + tree.edge_count[node]):
        if tree.edge_move[edge] == move:
            return edge
    return -1


@njit(cache=True, nogil=True)
def add_visit(tree: TreeArrays, node: int, virtual_loss: float) -> None:
    """Count a descent through ``node`` as a visit with a provisional loss."""
    tree.visits[node] += 1
    tree.value[node] -= virtual_loss
    refresh_means(tree, node)


@njit(cache=True, nogil=True, inline="always")
def refresh_means(tree: TreeArrays, node: int) -> None:
    """Update the mean value and 1/sqrt(visits) that selection reads, after a change."""
    visits = tree.visits[node]
    if visits > 0:
        tree.mean[node] = tree.value[node] / visits
        tree.inv_sqrt[node] = 1.0 / math.sqrt(visits)
    else:
        tree.mean[node] = 0.0
        tree.inv_sqrt[node] = 0.0


@njit(cache=True, nogil=True, inline="always")
def stop_at(tree: TreeArrays, node: int) -> int:
    """The kind of leaf a descent reaching ``node`` ends on, or -1 to go on down."""
    if tree.status[node] != UNKNOWN:
        return LEAF_PROVEN
    if tree.pending[node]:
        return LEAF_COLLISION
    if tree.edge_start[node] < 0:
        return LEAF_NEW
    return -1


@njit(cache=True, nogil=True, inline="always")
def step_down(
    tree: TreeArrays,
    node: int,
    edge: int,
    cells: np.ndarray,
    settings: SearchSettings,
    to_move: int,
    stones: int,
) -> int:
    """Follow ``edge`` from ``node``, playing its move on ``cells``; the child.

    A child met for the first time is created and judged on ``cells`` (a win, or a
    draw on a full board); -1 when the node arrays are full.
    """
    child = tree.edge_child[edge]
    move = tree.edge_move[edge]
    if child >= 0:
        cells[move] = to_move
        return child
    child = new_node(tree, node, move)
    if child < 0:
        return -1
    tree.edge_child[edge] = child
    tree.tried[node] += 1
    size, length, rule = settings.board_size, settings.win_length, settings.rule_code
    if place_and_judge(cells, size, length, rule, move, to_move):
        tree.status[child] = WIN
    elif stones + 1 == cells.size:
        tree.status[child] = DRAW
    return child


@njit(cache=True, nogil=True)
def descend(
    tree: TreeArrays,
    cells: np.ndarray,
    settings: SearchSettings,
    state: np.ndarray,
    rng: np.ndarray,
    root_move: int,
) -> int:
    """Walk from the root to a leaf, playing the moves on ``cells`` (the root position).

    ``state`` holds the root's (to_move, last_move, stones) on entry and the leaf's on
    return, followed by the kind of leaf (LEAF_*) at index 3. A ``root_move`` of the
    root's edges is the descent's first step (a root schedule such as sequential
    halving chose it); -1, or a move the root has no edge for, selects as anywhere.
    Returns the leaf node.
    """
    node = 0
    to_move, last_move, stones = state[TO_MOVE], state[LAST_MOVE], state[STONES]
    add_visit(tree, node, settings.virtual_loss)
    kind = stop_at(tree, node)
    while kind < 0:
        edge = edge_of_move(tree, node, root_move) if node == 0 else -1
        if edge < 0:
            edge = select_edge(tree, node, settings, rng)
        if edge < 0:
            tree.status[node] = WIN
            kind = LEAF_PROVEN
            break
        child = step_down(tree, node, edge, cells, settings, to_move, stones)
        if child < 0:
            kind = LEAF_FULL
            break
        stones += 1
        last_move = tree.edge_move[edge]
        to_move = other_color(to_move)
        node = child
        add_visit(tree, node, settings.virtual_loss)
        kind = stop_at(tree, node)
    state[TO_MOVE], state[LAST_MOVE], state[STONES], state[LEAF_KIND] = (
        to_move,
        last_move,
        stones,
        kind,
    )
    return node


@njit(cache=True, nogil=True)
def revert_descent(tree: TreeArrays, leaf: int, virtual_loss: float) -> None:
    """Take back the visits and virtual losses of an abandoned descent."""
    node = leaf
    while node >= 0:
        tree.visits[node] -= 1
        tree.value[node] += virtual_loss
        refresh_means(tree, node)
        node = tree.parent[node]


@njit(cache=True, nogil=True)
def judge_node(tree: TreeArrays, node: int) -> int:
    """The proven status of expanded ``node`` from its children's, or UNKNOWN."""
    start = tree.edge_start[node]
    if start < 0:
        return UNKNOWN
    all_proven, any_draw = True, False
    for edge in range(start, start + tree.edge_count[node]):
        child = tree.edge_child[edge]
        if child < 0 or tree.status[child] == UNKNOWN:
            all_proven = False
        elif tree.status[child] == WIN:
            return LOSS
        elif tree.status[child] == DRAW:
            any_draw = True
    if not all_proven:
        return UNKNOWN
    return DRAW if any_draw else WIN


@njit(cache=True, nogil=True)
def backup(tree: TreeArrays, leaf: int, value: float, virtual_loss: float) -> None:
    """Replace the virtual losses on the path by ``value`` (for the leaf's mover,
    negated per ply), then propagate a proven result upwards as far as it goes."""
    node = leaf
    while node >= 0:
        tree.value[node] += value + virtual_loss
        refresh_means(tree, node)
        value = -value
        node = tree.parent[node]
    if tree.status[leaf] == UNKNOWN:
        return
    node = tree.parent[leaf]
    while node >= 0:
        status = judge_node(tree, node)
        if status == UNKNOWN or status == tree.status[node]:
            return
        tree.status[node] = status
        node = tree.parent[node]
