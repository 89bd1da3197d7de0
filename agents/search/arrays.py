"""The search tree as flat arrays: a row per node, a row per edge, no Python objects.

A node holds the statistics of the move that led to it, from the point of view of the
player who made that move (so a parent picks the child with the best value directly).
An expanded node owns a contiguous block of edges (move, prior, child index); a child
node is created the first time its edge is selected, so a simulation adds one node.
The root is always node 0; :func:`compact_subtree` moves a subtree there for tree reuse.

Each tree also owns the state of its random stream (xorshift64*, a one-element
``uint64`` array, :func:`new_random_state`), so searches stepped together or run on
several threads never share randomness, and a seed reproduces a search exactly.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

UNKNOWN = 0
WIN = 1  # the player who moved into the node wins with best play (or has won)
LOSS = 2  # the player who moved into the node loses with best play
DRAW = 3  # the game ends drawn (full board) with best play

NODES_USED = 0
EDGES_USED = 1

_MULTIPLIER = np.uint64(2685821657736338717)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


class TreeArrays(NamedTuple):
    """The arrays of one tree; numba kernels take it whole."""

    visits: np.ndarray  # int32: simulations through the node (virtual ones included)
    value: np.ndarray  # float64: summed values for the player who moved into the node
    mean: np.ndarray  # float64: value / visits (0 before the first visit)
    inv_sqrt: np.ndarray  # float64: 1 / sqrt(visits) (0 before the first visit)
    parent: np.ndarray  # int32: parent node, -1 for the root
    move: np.ndarray  # int16: action that led to the node, -1 for the root
    edge_start: np.ndarray  # int32: first edge, -1 until expanded
    edge_count: np.ndarray  # int32: number of edges
    tried: np.ndarray  # int32: UCT opens edges in order; edges below this have a child
    status: np.ndarray  # int8: UNKNOWN, WIN, LOSS or DRAW (proven results)
    pending: np.ndarray  # int8: 1 while the node waits for an external evaluation
    edge_move: np.ndarray  # int16: action of the edge
    edge_prior: np.ndarray  # float32: prior probability of the edge
    edge_child: np.ndarray  # int32: child node, -1 until first selected
    used: np.ndarray  # int64[2]: nodes used, edges used


def allocate_tree(max_nodes: int, max_edges: int) -> TreeArrays:
    """Empty arrays for ``max_nodes`` nodes and ``max_edges`` edges, with a root."""
    tree = TreeArrays(
        visits=np.zeros(max_nodes, dtype=np.int32),
        value=np.zeros(max_nodes, dtype=np.float64),
        mean=np.zeros(max_nodes, dtype=np.float64),
        inv_sqrt=np.zeros(max_nodes, dtype=np.float64),
        parent=np.zeros(max_nodes, dtype=np.int32),
        move=np.zeros(max_nodes, dtype=np.int16),
        edge_start=np.zeros(max_nodes, dtype=np.int32),
        edge_count=np.zeros(max_nodes, dtype=np.int32),
        tried=np.zeros(max_nodes, dtype=np.int32),
        status=np.zeros(max_nodes, dtype=np.int8),
        pending=np.zeros(max_nodes, dtype=np.int8),
        edge_move=np.zeros(max_edges, dtype=np.int16),
        edge_prior=np.zeros(max_edges, dtype=np.float32),
        edge_child=np.zeros(max_edges, dtype=np.int32),
        used=np.zeros(2, dtype=np.int64),
    )
    clear_tree(tree, -1)
    return tree


@njit(cache=True, nogil=True)
def new_node(tree: TreeArrays, parent: int, move: int) -> int:
    """Append a fresh node; -1 when the node arrays are full."""
    node = tree.used[NODES_USED]
    if node >= tree.visits.size:
        return -1
    tree.used[NODES_USED] = node + 1
    tree.visits[node] = 0
    tree.value[node] = 0.0
    tree.mean[node] = 0.0
    tree.inv_sqrt[node] = 0.0
    tree.parent[node] = parent
    tree.move[node] = move
    tree.edge_start[node] = -1
    tree.edge_count[node] = 0
    tree.tried[node] = 0
    tree.status[node] = UNKNOWN
    tree.pending[node] = 0
    return node


@njit(cache=True, nogil=True)
def clear_tree(tree: TreeArrays, root_move: int) -> None:
    """Drop every node and edge, leaving a fresh root reached by ``root_move``."""
    tree.used[NODES_USED] = 0
    tree.used[EDGES_USED] = 0
    new_node(tree, -1, root_move)


@njit(cache=True, nogil=True, inline="always")
def copy_node(source: TreeArrays, old: int, target: TreeArrays, new: int) -> None:
    """Copy node ``old``'s statistics to node ``new`` of ``target``; its parent and
    edges are the caller's, and its pending mark is dropped."""
    target.visits[new] = source.visits[old]
    target.value[new] = source.value[old]
    target.mean[new] = source.mean[old]
    target.inv_sqrt[new] = source.inv_sqrt[old]
    target.move[new] = source.move[old]
    target.tried[new] = source.tried[old]
    target.status[new] = source.status[old]
    target.pending[new] = 0
    target.edge_count[new] = source.edge_count[old]


@njit(cache=True, nogil=True)
def compact_subtree(source: TreeArrays, new_root: int, target: TreeArrays) -> None:
    """Copy the subtree under ``new_root`` into ``target`` (cleared), root first.

    Breadth-first, so a node's new index is its position in the queue; pending marks
    are dropped (a moved tree has no evaluation in flight).
    """
    queue = np.empty(source.used[NODES_USED], dtype=np.int32)
    queue[0] = new_root
    tail = 1
    target.used[EDGES_USED] = 0
    for head in range(source.used[NODES_USED]):
        if head >= tail:
            break
        old = queue[head]
        copy_node(source, old, target, head)
        start = source.edge_start[old]
        if start < 0:
            target.edge_start[head] = -1
            continue
        new_start = target.used[EDGES_USED]
        target.edge_start[head] = new_start
        for k in range(source.edge_count[old]):
            target.edge_move[new_start + k] = source.edge_move[start + k]
            target.edge_prior[new_start + k] = source.edge_prior[start + k]
            child = source.edge_child[start + k]
            if child >= 0:
                queue[tail] = child
                target.parent[tail] = head
                target.edge_child[new_start + k] = tail
                tail += 1
            else:
                target.edge_child[new_start + k] = -1
        target.used[EDGES_USED] = new_start + source.edge_count[old]
    target.parent[0] = -1
    target.used[NODES_USED] = tail


def new_random_state(seed: int) -> np.ndarray:
    """A generator state from a non-negative integer seed (never the all-zero state)."""
    state = np.array(
        [(int(seed) * 0x9E3779B97F4A7C15 + 1) % (1 << 64)], dtype=np.uint64
    )
    if state[0] == 0:
        state[0] = _GOLDEN
    return state


@njit(cache=True, nogil=True)
def next_random(state: np.ndarray) -> np.uint64:
    """The next 64 random bits."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * _MULTIPLIER


@njit(cache=True, nogil=True)
def random_below(state: np.ndarray, bound: int) -> int:
    """A uniform integer in [0, bound) (bound ≥ 1), by multiply-shift of 32 bits."""
    high = next_random(state) >> np.uint64(32)
    return np.int64((high * np.uint64(bound)) >> np.uint64(32))
