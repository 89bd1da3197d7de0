"""Search rounds: gather leaves, evaluate them (rollouts or an evaluator), back up.

A round descends from the root up to ``max_leaves`` times; proven leaves are backed up
on the spot, the others are marked pending (so later descents of the round turn away
from them, on top of the virtual loss) and returned. Without an evaluator (rollouts of
the settings' ``rollout_code``) the whole loop runs here (:func:`run_rollouts`); with an
evaluator Python calls :func:`gather_leaf_inputs`, the evaluator, then
:func:`apply_evaluations`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.patterns.pattern_state import PatternState
from agents.search.arrays import UNKNOWN, TreeArrays
from agents.search.expand import expand_node
from agents.search.position_kernels import legal_mask_into
from agents.search.rollout import rollout
from agents.search.select import (
    LEAF_COLLISION,
    LEAF_KIND,
    LEAF_PROVEN,
    backup,
    descend,
    proven_value,
    revert_descent,
)
from agents.search.settings import SearchSettings
from gomoku_env.kernels import other_color
from gomoku_env.planes import write_planes

NO_ROOT_PLAN = np.empty(0, dtype=np.int64)
"""The ``root_moves`` of a round that selects every descent's first move."""


@njit(cache=True, nogil=True)
def gather_leaves(
    tree: TreeArrays,
    root_cells: np.ndarray,
    settings: SearchSettings,
    root_state: np.ndarray,
    max_leaves: int,
    leaves: np.ndarray,
    rng: np.ndarray,
    root_moves: np.ndarray,
) -> tuple[int, int]:
    """Collect up to ``max_leaves`` pending leaves into ``leaves``.

    Empty ``root_moves``: each descent selects from the root. Otherwise descent ``i``
    starts with ``root_moves[i]`` (a root schedule's plan, sequential halving's), and
    the round ends with the plan. Returns (leaves found, proven simulations backed up
    during the round). Stops early on a collision or when the root is proven.
    """
    cells = np.empty_like(root_cells)
    state = np.empty(4, dtype=np.int64)
    planned = root_moves.size
    found, proven = 0, 0
    for attempt in range(planned if planned else 4 * max_leaves):
        if found == max_leaves or tree.status[0] != UNKNOWN:
            break
        cells[:] = root_cells
        state[:3] = root_state
        root_move = root_moves[attempt] if planned else -1
        leaf = descend(tree, cells, settings, state, rng, root_move)
        if state[LEAF_KIND] == LEAF_PROVEN:
            backup(tree, leaf, proven_value(tree.status[leaf]), settings.virtual_loss)
            proven += 1
        elif state[LEAF_KIND] == LEAF_COLLISION:
            revert_descent(tree, leaf, settings.virtual_loss)
            break
        else:
            tree.pending[leaf] = 1
            leaves[found] = leaf
            found += 1
    return found, proven


@njit(cache=True, nogil=True)
def leaf_position(
    tree: TreeArrays,
    leaf: int,
    root_cells: np.ndarray,
    root_state: np.ndarray,
    cells: np.ndarray,
) -> tuple[int, int, int]:
    """Write the position of ``leaf`` into ``cells``; (to_move, last_move, stones)."""
    moves = np.empty(root_cells.size + 1, dtype=np.int32)
    depth = 0
    node = leaf
    while tree.parent[node] >= 0:
        moves[depth] = tree.move[node]
        depth += 1
        node = tree.parent[node]
    cells[:] = root_cells
    color = root_state[0]
    for k in range(depth - 1, -1, -1):
        cells[moves[k]] = color
        color = other_color(color)
    last_move = moves[0] if depth > 0 else root_state[1]
    return color, last_move, root_state[2] + depth


@njit(cache=True, nogil=True)
def write_leaf_inputs(
    tree: TreeArrays,
    leaves: np.ndarray,
    count: int,
    root_cells: np.ndarray,
    settings: SearchSettings,
    root_state: np.ndarray,
    planes: np.ndarray,
    masks: np.ndarray,
    offset: int,
) -> None:
    """Write the observation planes and legal masks of ``leaves[:count]`` into rows
    ``offset...`` of ``planes`` (B, H, W, C) and ``masks`` (B, H*W)."""
    cells = np.empty_like(root_cells)
    for k in range(count):
        to_move, last_move, _ = leaf_position(
            tree, leaves[k], root_cells, root_state, cells
        )
        size = settings.board_size
        legal_mask_into(cells, size, settings.rule_code, to_move, masks[offset + k])
        write_planes(
            cells, size, to_move, last_move, masks[offset + k], planes[offset + k]
        )


@njit(cache=True, nogil=True)
def gather_leaf_inputs(
    tree: TreeArrays,
    root_cells: np.ndarray,
    settings: SearchSettings,
    root_state: np.ndarray,
    leaves: np.ndarray,
    planes: np.ndarray,
    masks: np.ndarray,
    offset: int,
    rng: np.ndarray,
    root_moves: np.ndarray,
) -> tuple[int, int]:
    """:func:`gather_leaves` (up to ``leaves.size``, following ``root_moves`` when it
    is not empty), then :func:`write_leaf_inputs` for the leaves found, in one call
    from Python (each call pays numba's dispatch on the tuples it takes)."""
    found, proven = gather_leaves(
        tree, root_cells, settings, root_state, leaves.size, leaves, rng, root_moves
    )
    write_leaf_inputs(
        tree, leaves, found, root_cells, settings, root_state, planes, masks, offset
    )
    return found, proven


@njit(cache=True, nogil=True)
def expand_and_back_up(
    tree: TreeArrays,
    leaf: int,
    cells: np.ndarray,
    settings: SearchSettings,
    to_move: int,
    priors: np.ndarray,
    value: float,
    rng: np.ndarray,
    patterns: PatternState,
) -> None:
    """Expand a gathered leaf with ``priors`` and back up ``value`` (for the side to
    move at the leaf), or its proven result if the expansion proved it."""
    tree.pending[leaf] = 0
    if tree.edge_start[leaf] < 0:
        expand_node(tree, leaf, cells, settings, to_move, priors, rng, patterns)
    if tree.status[leaf] != UNKNOWN:
        value = -proven_value(tree.status[leaf])
    backup(tree, leaf, -value, settings.virtual_loss)


@njit(cache=True, nogil=True)
def apply_evaluations(
    tree: TreeArrays,
    leaves: np.ndarray,
    count: int,
    root_cells: np.ndarray,
    settings: SearchSettings,
    root_state: np.ndarray,
    priors: np.ndarray,
    values: np.ndarray,
    offset: int,
    rng: np.ndarray,
    patterns: PatternState,
) -> None:
    """Expand and back up ``leaves[:count]`` with rows ``offset...`` of the evaluator's
    ``priors`` (B, H*W) and ``values`` (B,) (for the side to move at each leaf);
    ``patterns`` holds the root position, for the VCF checks."""
    cells = np.empty_like(root_cells)
    for k in range(count):
        to_move, _, _ = leaf_position(tree, leaves[k], root_cells, root_state, cells)
        expand_and_back_up(
            tree,
            leaves[k],
            cells,
            settings,
            to_move,
            priors[offset + k],
            values[offset + k],
            rng,
            patterns,
        )


@njit(cache=True, nogil=True)
def rollout_value(
    cells: np.ndarray, settings: SearchSettings, to_move: int, rng: np.ndarray
) -> float:
    """A rollout's result for the side to move: +1 win, -1 loss, 0 draw."""
    winner = rollout(cells, settings, to_move, rng)
    if winner == 0:
        return 0.0
    return 1.0 if winner == to_move else -1.0


@njit(cache=True, nogil=True)
def evaluate_by_rollout(
    tree: TreeArrays,
    leaf: int,
    root_cells: np.ndarray,
    settings: SearchSettings,
    root_state: np.ndarray,
    rng: np.ndarray,
    patterns: PatternState,
) -> None:
    """Expand a gathered leaf with uniform priors, play it out once, back up."""
    cells = np.empty_like(root_cells)
    to_move, _, _ = leaf_position(tree, leaf, root_cells, root_state, cells)
    tree.pending[leaf] = 0
    if tree.edge_start[leaf] < 0:
        no_priors = np.empty(0, np.float32)
        expand_node(tree, leaf, cells, settings, to_move, no_priors, rng, patterns)
    if tree.status[leaf] == UNKNOWN:
        value = -rollout_value(cells, settings, to_move, rng)
    else:
        value = proven_value(tree.status[leaf])
    backup(tree, leaf, value, settings.virtual_loss)


@njit(cache=True, nogil=True)
def run_rollouts(
    tree: TreeArrays,
    root_cells: np.ndarray,
    settings: SearchSettings,
    root_state: np.ndarray,
    simulations: int,
    leaves_per_round: int,
    rng: np.ndarray,
    patterns: PatternState,
) -> int:
    """Run about ``simulations`` simulations with rollouts (tactical or random, as
    ``settings`` say), ``leaves_per_round`` leaves per round; returns the number run
    (fewer when the root gets proven). ``patterns`` holds the root position, for the
    VCF checks."""
    leaves = np.empty(leaves_per_round, dtype=np.int32)
    no_plan = np.empty(0, dtype=np.int64)
    done = 0
    while done < simulations and tree.status[0] == UNKNOWN:
        found, proven = gather_leaves(
            tree,
            root_cells,
            settings,
            root_state,
            min(leaves_per_round, simulations - done),
            leaves,
            rng,
            no_plan,
        )
        done += found + proven
        for k in range(found):
            evaluate_by_rollout(
                tree, leaves[k], root_cells, settings, root_state, rng, patterns
            )
    return done
