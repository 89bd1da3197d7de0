"""VCF search: victory by continuous fours, compiled with numba.

The attacker plays only moves that make a four; the defender's reply is then forced (the
one point that completes the five). A sequence wins when the attacker makes a five, or a
four the defender cannot stop because it has two completion points. The defender is
not passive: when its forced block makes a four of its own, the attacker's next move
must block that point (and make a four there, or the attack fails); a block that is a
five for the defender refutes the attack. Under renju black never plays a forbidden
point: its fours on such points are no threats (the evaluator gives them no value), and
a white four whose only block is forbidden to black wins at once.

Because every defender move is forced, the search is a narrow depth-first tree and a
win it reports is a real forced win; a miss only means none was found within the ply
and node budgets. :func:`find_vcf` wins with it, :func:`refuting_moves` defends against
the opponent's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.patterns import shapes as sh
from agents.patterns.pattern_state import (
    BANNED,
    COUNT_FIVES,
    PatternState,
    place,
    remove,
)
from agents.patterns.point_shapes import FIVE_SCORE
from gomoku_env.kernels import BLACK, EMPTY, other_color

VCF_PLIES = 21
"""The longest VCF the agents seek at the root (attacker and defender plies): the tree
search's checks and the alpha-beta agent's default ``vcf_plies``."""

ROOT_VCF_NODES = 20_000
"""Solver nodes for each root check (the mover's win, the opponent's win, and the
refutations, shared among the candidate moves): the tree search's, and the alpha-beta
agent's default ``vcf_nodes``."""


@njit(cache=True, nogil=True)
def side_of(color: int) -> int:
    """Row of a colour in the evaluator's arrays (black 0, white 1)."""
    return 0 if color == BLACK else 1


@njit(cache=True, nogil=True)
def five_point(state: PatternState, side: int) -> int:
    """An empty point where ``side`` makes a five, or -1."""
    for point in range(state.cells.size):
        if state.cells[point] == EMPTY and state.scores[side, point] == FIVE_SCORE:
            return point
    return -1


@njit(cache=True, nogil=True)
def blocked_by_ban(state: PatternState, side: int, point: int) -> bool:
    """Whether ``side`` may not play ``point`` (black's renju forbidden point)."""
    return side == 0 and state.scores[0, point] == BANNED


@njit(cache=True, nogil=True)
def makes_four(state: PatternState, side: int, point: int) -> bool:
    """Whether a stone of ``side`` on empty ``point`` makes a (permitted) four."""
    if state.scores[side, point] <= 0:
        return False
    for direction in range(4):
        shape = state.shapes[side, point, direction]
        if shape == sh.FOUR or shape == sh.OPEN_FOUR:
            return True
    return False


@njit(cache=True, nogil=True)
def four_moves(state: PatternState, side: int) -> np.ndarray:
    """The points where ``side`` makes a four, best point value first."""
    count = 0
    found = np.empty(state.cells.size, dtype=np.int64)
    for point in range(state.cells.size):
        if state.cells[point] == EMPTY and makes_four(state, side, point):
            found[count] = point
            count += 1
    found = found[:count]
    order = np.argsort(-state.scores[side, found], kind="mergesort")
    return found[order]


@njit(cache=True, nogil=True)
def _attack_moves(state: PatternState, side: int) -> np.ndarray:
    """Four moves of ``side``; only the block when the defender threatens a five."""
    defender = 1 - side
    if state.counts[defender, COUNT_FIVES] == 0:
        return four_moves(state, side)
    block = five_point(state, defender)
    if state.counts[defender, COUNT_FIVES] == 1 and makes_four(state, side, block):
        return np.array([block], dtype=np.int64)
    return np.empty(0, dtype=np.int64)


@njit(cache=True, nogil=True)
def _attack_outcome(state: PatternState, side: int, plies: int) -> int:
    """What a node of the attacker (``side`` to move) is worth before its moves are
    tried: 1 when it has a five, 0 when it is out of plies, -1 when its fours are to
    be tried."""
    if plies < 1:
        return 0
    if state.counts[side, COUNT_FIVES] > 0:
        return 1
    return -1 if plies >= 3 else 0


@njit(cache=True, nogil=True)
def vcf_search(
    state: PatternState, color: int, plies: int, line: np.ndarray, ply: int,
    budget: np.ndarray,
) -> int:  # fmt: skip
    """Length of a forced win by fours for ``color`` (to move) within ``plies``, or 0.

    The winning moves go to ``line[ply:]``; ``budget[0]`` is the number of nodes left
    and ``budget[1]`` counts the nodes searched. A depth-first search written as a
    loop over an explicit stack (numba cannot link a cached recursive function into
    a caller compiled later), one frame per attacker move: frame ``d`` sits
    ``2 * d`` plies deep, its four moves in ``moves[d]``.
    """
    side = side_of(color)
    defender = other_color(color)
    frames = plies // 2 + 1
    moves = np.empty((frames, state.cells.size), dtype=np.int64)
    counts = np.zeros(frames, dtype=np.int64)
    tried = np.zeros(frames, dtype=np.int64)
    blocks = np.empty(frames, dtype=np.int64)
    depth = 0
    entering = True
    result = 0
    while True:
        if entering:
            entering = False
            budget[0] -= 1
            budget[1] += 1
            outcome = -1 if budget[0] >= 0 else 0
            if outcome < 0:
                outcome = _attack_outcome(state, side, plies - 2 * depth)
            if outcome == 1:
                line[ply + 2 * depth] = five_point(state, side)
                result = ply + 2 * depth + 1
            elif outcome == 0:
                result = 0
            else:
                found = _attack_moves(state, side)
                counts[depth] = found.size
                moves[depth, : found.size] = found
                tried[depth] = 0
                result = -1
        if result < 0:  # try the frame's next four
            if tried[depth] == counts[depth]:
                result = 0
            else:
                move = moves[depth, tried[depth]]
                tried[depth] += 1
                place(state, move, color)
                block = five_point(state, side)
                here = ply + 2 * depth
                if block >= 0 and blocked_by_ban(state, 1 - side, block):
                    remove(state, move)
                    line[here], line[here + 1] = move, block
                    result = here + 1
                elif block >= 0 and state.scores[1 - side, block] != FIVE_SCORE:
                    place(state, block, defender)
                    blocks[depth] = block
                    depth += 1
                    entering = True
                    continue
                else:
                    remove(state, move)
                    if budget[0] < 0:
                        result = 0
                if result < 0:
                    continue
        # the frame at ``depth`` is decided: hand ``result`` to the frame above
        if depth == 0:
            return result
        depth -= 1
        move = moves[depth, tried[depth] - 1]
        remove(state, blocks[depth])
        remove(state, move)
        if result > 0:
            here = ply + 2 * depth
            line[here], line[here + 1] = move, blocks[depth]
        elif budget[0] >= 0:
            result = -1  # this four failed: the frame tries its next


@njit(cache=True, nogil=True)
def find_vcf(
    state: PatternState, color: int, plies: int, node_limit: int, line: np.ndarray
) -> tuple[int, int]:
    """(length, nodes): a VCF for ``color`` written to ``line``; length 0 if none."""
    budget = np.array([node_limit, 0], dtype=np.int64)
    length = vcf_search(state, color, plies, line, np.int64(0), budget)
    return length, budget[1]


@njit(cache=True, nogil=True)
def _opponent_wins_after(
    state: PatternState, color: int, move: int, plies: int, node_limit: int,
    line: np.ndarray,
) -> bool:  # fmt: skip
    """Whether the opponent still has a VCF after ``color`` plays ``move``.

    When ``move`` makes a four, the opponent's block is played first (it is forced) and
    the opponent's VCF is then sought from the position after it, as if we passed.
    """
    opponent = other_color(color)
    place(state, move, color)
    block = five_point(state, side_of(color))
    length = 0
    if block < 0:
        length, _ = find_vcf(state, opponent, plies, node_limit, line)
    elif not blocked_by_ban(state, side_of(opponent), block):
        place(state, block, opponent)
        length, _ = find_vcf(state, opponent, plies, node_limit, line)
        remove(state, block)
    remove(state, move)
    return length > 0


@njit(cache=True, nogil=True)
def refuting_moves(
    state: PatternState, color: int, candidates: np.ndarray, plies: int, node_limit: int
) -> np.ndarray:
    """The ``candidates`` after which the opponent has no VCF within ``plies``."""
    line = np.empty(plies + 1, dtype=np.int64)
    keep = np.zeros(candidates.size, dtype=np.bool_)
    for index in range(candidates.size):
        keep[index] = not _opponent_wins_after(
            state, color, candidates[index], plies, node_limit, line
        )
    return candidates[keep]
