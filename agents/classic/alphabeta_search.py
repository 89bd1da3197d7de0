"""Compiled negamax with alpha-beta pruning, a transposition table and threat pruning.

One call searches one depth; :class:`agents.classic.alphabeta.AlphaBetaAgent` drives iterative
deepening and the clock. Inside the tree:

- a side with a five point wins; a side facing two five points, or one that it may not
  block (black's renju forbidden point), loses; a side to move
  with an open-four point, whose opponent cannot make any four, wins in three plies;
- a side facing one five point has a single (forced) move, searched without using up
  depth, so four-threat sequences are resolved past the horizon;
- candidate moves are the empty points within two of a stone (never black's forbidden
  points under renju), ordered by the pattern
  move score (ties broken by a seeded ranking) and cut to ``branching``, the
  transposition-table move first;
- at the horizon, a short VCF for the side to move (``leaf_vcf_plies``) turns hidden
  forced wins into win scores: the threat-space extension.

Scores are from the point of view of the side to move; wins are ``WIN_SCORE - plies``
so that quicker wins score higher.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from agents.patterns.pattern_state import (
    COUNT_FIVES,
    COUNT_FOURS,
    COUNT_WINNING,
    PatternState,
    move_score,
    place,
    position_value,
    remove,
)
from agents.patterns.point_shapes import FIVE_SCORE
from agents.patterns.threats import (
    blocked_by_ban,
    five_point,
    side_of,
    vcf_search,
)
from gomoku_env.kernels import EMPTY, RENJU, other_color

WIN_SCORE = 1_000_000_000
WIN_THRESHOLD = WIN_SCORE - 10_000
INFINITY = 2 * WIN_SCORE
UNRESOLVED = -3 * WIN_SCORE
"""A node value meaning 'not known without searching the node'."""

EXACT = 0
LOWER = 1
UPPER = 2

NODES = 0
NODE_LIMIT = 1
ABORTED = 2
BEST_MOVE = 3
VCF_NODES = 4
COUNTER_SLOTS = 5
"""Slots of ``SearchContext.counters``."""


class TranspositionTable(NamedTuple):
    """Entries indexed by ``hash & (size - 1)``: the full key, the best move found, the
    value (win scores stored relative to the node), the depth searched and the bound."""

    keys: np.ndarray
    moves: np.ndarray
    values: np.ndarray
    depths: np.ndarray
    bounds: np.ndarray


class SearchContext(NamedTuple):
    """What one search needs besides the position.

    zobrist: int64 (2, cells) random keys per colour and point.
    tie_rank: int64 (cells,) a seeded ranking of the points, to break ordering ties.
    counters: int64 (COUNTER_SLOTS,) nodes, node limit (on alpha-beta and horizon VCF
        nodes together), aborted flag, root best move, horizon VCF nodes.
    root_moves: the moves allowed at the root (all candidates when empty).
    branching: the most moves searched per node.
    leaf_vcf_plies: plies of the VCF run at the horizon (0 turns it off).
    leaf_vcf_nodes: node budget of that VCF.
    """

    zobrist: np.ndarray
    tie_rank: np.ndarray
    counters: np.ndarray
    root_moves: np.ndarray
    branching: int
    leaf_vcf_plies: int
    leaf_vcf_nodes: int


def new_table(bits: int) -> TranspositionTable:
    """An empty transposition table of ``2 ** bits`` entries."""
    size = 1 << bits
    return TranspositionTable(
        keys=np.zeros(size, dtype=np.int64),
        moves=np.full(size, -1, dtype=np.int64),
        values=np.zeros(size, dtype=np.int64),
        depths=np.full(size, -1, dtype=np.int64),
        bounds=np.zeros(size, dtype=np.int8),
    )


def zobrist_keys(cells: int) -> np.ndarray:
    """Fixed random keys (the same for every agent, so hashes are comparable)."""
    generator = np.random.default_rng(20240607)
    return generator.integers(
        1, np.iinfo(np.int64).max, size=(2, cells), dtype=np.int64
    )


@njit(cache=True, nogil=True)
def position_hash(state: PatternState, zobrist: np.ndarray) -> int:
    """The Zobrist hash of the stones on the board."""
    key = 0
    for point in range(state.cells.size):
        if state.cells[point] != EMPTY:
            key ^= zobrist[state.cells[point] - 1, point]
    return key


@njit(cache=True, nogil=True)
def _to_table(value: int, ply: int) -> int:
    if value > WIN_THRESHOLD:
        return value + ply
    if value < -WIN_THRESHOLD:
        return value - ply
    return value


@njit(cache=True, nogil=True)
def _from_table(value: int, ply: int) -> int:
    if value > WIN_THRESHOLD:
        return value - ply
    if value < -WIN_THRESHOLD:
        return value + ply
    return value


@njit(cache=True, nogil=True)
def ordered_candidates(
    state: PatternState, color: int, tie_rank: np.ndarray, first: int, limit: int
) -> np.ndarray:
    """Empty points near stones, best move score first, ``first`` (if legal) in front.

    When the opponent has an open three (a winning point) and the mover none, only the
    points that answer it are kept: those where either side makes a four (every defence
    of a three is one of its points where the opponent would make a four, or a
    counter-four).
    """
    side = side_of(color)
    must_answer = (
        state.counts[1 - side, COUNT_WINNING] > 0
        and state.counts[side, COUNT_WINNING] == 0
    )
    count = 0
    points = np.empty(state.cells.size, dtype=np.int64)
    keys = np.empty(state.cells.size, dtype=np.int64)
    for point in range(state.cells.size):
        answers = state.four_flags[0, point] or state.four_flags[1, point]
        if (
            state.cells[point] == EMPTY
            and state.near[point] > 0
            and (answers or not must_answer)
            and not blocked_by_ban(state, side, point)
        ):
            points[count] = point
            keys[count] = -(move_score(state, point, color) * 1024 + tie_rank[point])
            if point == first:
                keys[count] = -INFINITY * 1024
            count += 1
    order = np.argsort(keys[:count])
    return points[order[: min(limit, count)]]


@njit(cache=True, nogil=True)
def _threat_outcome(state: PatternState, color: int, ply: int) -> int:
    """A decided score from the five and open-four counts, or 0 when undecided."""
    side = side_of(color)
    if state.counts[side, COUNT_FIVES] > 0:
        return WIN_SCORE - ply - 1
    opponent_fives = state.counts[1 - side, COUNT_FIVES]
    if opponent_fives > 1 or (
        opponent_fives == 1
        and state.rule_code == RENJU
        and blocked_by_ban(state, side, five_point(state, 1 - side))
    ):
        return -(WIN_SCORE - ply - 2)
    opponent_threats = (
        state.counts[1 - side, COUNT_FIVES] + state.counts[1 - side, COUNT_FOURS]
    )
    if opponent_threats == 0 and state.counts[side, COUNT_WINNING] > 0:
        return WIN_SCORE - ply - 3
    return 0


@njit(cache=True, nogil=True)
def _decisive_move(state: PatternState, side: int) -> int:
    """The point behind a decided outcome: the best-valued point for ``side``.

    It is the five point when there is one, else an open-four point; when the outcome is
    a loss, any point that ``side`` may play will do (-1 when there is none).
    """
    best = -1
    for point in range(state.cells.size):
        if (
            state.cells[point] == EMPTY
            and not blocked_by_ban(state, side, point)
            and (best < 0 or state.scores[side, point] > state.scores[side, best])
        ):
            best = point
    return best


@njit(cache=True, nogil=True)
def _leaf_value(
    state: PatternState, context: SearchContext, color: int, ply: int
) -> int:
    """The horizon value: a VCF win if a short one exists, else the pattern value."""
    if context.leaf_vcf_plies > 0:
        line = np.empty(context.leaf_vcf_plies + 1, dtype=np.int64)
        budget = np.array([context.leaf_vcf_nodes, 0], dtype=np.int64)
        length = vcf_search(
            state, color, context.leaf_vcf_plies, line, np.int64(0), budget
        )
        context.counters[VCF_NODES] += budget[1]
        if length > 0:
            return WIN_SCORE - ply - length
    return position_value(state, color)


@njit(cache=True, nogil=True)
def _store(
    table: TranspositionTable, key: int, move: int, value: int, depth: int, bound: int,
    ply: int,
) -> None:  # fmt: skip
    slot = key & (table.keys.size - 1)
    if table.keys[slot] == key and table.depths[slot] > depth:
        return
    table.keys[slot] = key
    table.moves[slot] = move
    table.values[slot] = _to_table(value, ply)
    table.depths[slot] = depth
    table.bounds[slot] = bound


@njit(cache=True, nogil=True)
def _probe(
    table: TranspositionTable, key: int, depth: int, alpha: int, beta: int, ply: int
) -> tuple[int, int]:
    """(move, value): the stored best move (or -1) and a usable value (or -INFINITY)."""
    slot = key & (table.keys.size - 1)
    if table.keys[slot] != key:
        return -1, -INFINITY
    move = table.moves[slot]
    if table.depths[slot] < depth:
        return move, -INFINITY
    value = _from_table(table.values[slot], ply)
    bound = table.bounds[slot]
    if (
        bound == EXACT
        or (bound == LOWER and value >= beta)
        or (bound == UPPER and value <= alpha)
    ):
        return move, value
    return move, -INFINITY


@njit(cache=True, nogil=True)
def _moves_at(
    state: PatternState, context: SearchContext, color: int, ply: int, first: int
) -> np.ndarray:
    """The moves searched at a node: the forced block, the root list, or candidates."""
    opponent_side = 1 - side_of(color)
    if state.counts[opponent_side, COUNT_FIVES] == 1:
        return np.array([five_point(state, opponent_side)], dtype=np.int64)
    if ply == 0 and context.root_moves.size > 0:
        return context.root_moves
    return ordered_candidates(state, color, context.tie_rank, first, context.branching)


@njit(cache=True, nogil=True)
def _node_shortcut(
    state: PatternState, table: TranspositionTable, context: SearchContext, color: int,
    depth: int, alpha: int, beta: int, ply: int, key: int, forced: bool,
) -> tuple[int, int]:  # fmt: skip
    """(value, table move) of a node before its moves are searched.

    The value is UNRESOLVED when the node must be searched; otherwise it is the node's
    value without searching: an abort for the node limit (0, ABORTED set), a decided
    threat outcome, the horizon value, or a usable transposition-table value.
    """
    counters = context.counters
    counters[NODES] += 1
    if counters[NODES] + counters[VCF_NODES] > counters[NODE_LIMIT]:
        counters[ABORTED] = 1
        return 0, -1
    decided = _threat_outcome(state, color, ply)
    if decided != 0:
        if ply == 0:
            counters[BEST_MOVE] = _decisive_move(state, side_of(color))
        return decided, -1
    if depth <= 0 and not forced:
        return _leaf_value(state, context, color, ply), -1
    table_move, table_value = _probe(table, key, depth, alpha, beta, ply)
    if ply > 0 and table_value > -INFINITY:
        return table_value, table_move
    return UNRESOLVED, table_move


@njit(cache=True, nogil=True)
def _bound(best: int, original_alpha: int, beta: int) -> int:
    """The kind of bound that ``best`` is for a node searched in (alpha, beta)."""
    if best <= original_alpha:
        return UPPER
    return LOWER if best >= beta else EXACT


@njit(cache=True, nogil=True)
def negamax(
    state: PatternState, table: TranspositionTable, context: SearchContext, color: int,
    depth: int, alpha: int, beta: int, ply: int, key: int,
) -> int:  # fmt: skip
    """The value of the position for ``color`` (to move), searched ``depth`` plies."""
    counters = context.counters
    side, opponent = side_of(color), other_color(color)
    forced = state.counts[1 - side, COUNT_FIVES] == 1
    value, table_move = _node_shortcut(
        state, table, context, color, depth, alpha, beta, ply, key, forced
    )
    if value != UNRESOLVED:
        return value
    moves = _moves_at(state, context, color, ply, table_move)
    if moves.size == 0:
        if ply == 0:
            counters[BEST_MOVE] = _decisive_move(state, side)
        return 0
    child_depth = depth if forced else depth - 1
    original_alpha, best, best_move = alpha, -INFINITY, moves[0]
    for move in moves:
        place(state, move, color)
        score = -negamax(
            state, table, context, opponent, child_depth, -beta, -alpha, ply + 1,
            key ^ context.zobrist[side, move],
        )  # fmt: skip
        remove(state, move)
        if counters[ABORTED]:
            return 0
        if score > best:
            best, best_move = score, move
            alpha = max(alpha, score)
            if alpha >= beta:
                break
    _store(table, key, best_move, best, depth, _bound(best, original_alpha, beta), ply)
    if ply == 0:
        counters[BEST_MOVE] = best_move
    return best


@njit(cache=True, nogil=True)
def principal_variation(
    state: PatternState, table: TranspositionTable, zobrist: np.ndarray, color: int,
    key: int, length: int,
) -> np.ndarray:  # fmt: skip
    """The line of best moves stored in ``table``, at most ``length`` long."""
    line = np.empty(length, dtype=np.int64)
    count = 0
    while count < length:
        slot = key & (table.keys.size - 1)
        move = table.moves[slot]
        if table.keys[slot] != key or move < 0 or state.cells[move] != EMPTY:
            break
        line[count] = move
        finished = state.scores[side_of(color), move] == FIVE_SCORE
        place(state, move, color)
        key ^= zobrist[side_of(color), move]
        color = other_color(color)
        count += 1
        if finished:
            break
    for index in range(count - 1, -1, -1):
        remove(state, line[index])
    return line[:count]
