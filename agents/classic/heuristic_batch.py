"""The heuristic's moves for many games in one compiled call (the vector env's opponent).

:func:`heuristic_moves` rebuilds each game's cells from its observation planes, scores
every point as :meth:`agents.classic.heuristic.HeuristicAgent.scores` does (the same
:func:`agents.patterns.values.point_values`) and plays the best. Ties are broken with one
uniform draw per game supplied by the caller, so the choice among equally good points
is uniform, as in ``HeuristicAgent.act``, but not the same point that ``act`` would
draw from the same seed; so is the choice of a noisy heuristic's random moves.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.patterns.values import point_values
from gomoku_env.kernels import centre_point, other_color
from gomoku_env.legal import legal_mask_into
from gomoku_env.planes import read_cells


@njit(cache=True, nogil=True)
def pick_at_least(scores: np.ndarray, least: int, draw: float) -> int:
    """The ``draw``-th (a uniform number in [0, 1)) of the points scoring ``least`` or
    more: with the top score, one of the best points; with 0, any legal point."""
    ties = 0
    for point in range(scores.size):
        ties += scores[point] >= least
    chosen = int(draw * ties)
    for point in range(scores.size):
        if scores[point] >= least:
            if chosen == 0:
                return point
            chosen -= 1
    return -1


@njit(cache=True, nogil=True)
def heuristic_scores(
    planes: np.ndarray, size: int, win_length: int, rule_code: int,
    table: np.ndarray, weights: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """Every point's move score in each game of ``planes`` (games, H, W, PLANE_COUNT)
    for the side to move, as :meth:`HeuristicAgent.scores` gives it: -1 on stones and
    on black's renju forbidden points; an empty board scores only its centre (1).

    ``weights`` holds the attack and defence weights.
    """
    games, count = planes.shape[0], size * size
    scores = np.empty((games, count), dtype=np.int64)
    cells = np.empty(count, dtype=np.int8)
    own = np.empty(count, dtype=np.int64)
    other = np.empty(count, dtype=np.int64)
    legal = np.empty(count, dtype=np.int8)
    for game in range(games):
        mover = read_cells(planes[game], cells)
        if not cells.any():
            scores[game] = -1
            scores[game, centre_point(size)] = 1
            continue
        point_values(cells, size, win_length, rule_code, mover, table, own)
        point_values(
            cells, size, win_length, rule_code, other_color(mover), table, other
        )
        scores[game] = weights[0] * own + weights[1] * other
        legal_mask_into(cells, size, rule_code, mover, legal)
        for point in range(count):
            if not legal[point]:
                scores[game, point] = -1
    return scores


@njit(cache=True, nogil=True)
def heuristic_moves(
    planes: np.ndarray, size: int, win_length: int, rule_code: int,
    table: np.ndarray, weights: np.ndarray, draws: np.ndarray,
    noise: float, noise_draws: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The heuristic's move in each game of ``planes``: the best of
    :func:`heuristic_scores`, ties broken by ``draws`` (one uniform number per game);
    where the game's ``noise_draws`` number is below ``noise``, a legal point drawn
    uniformly (with the same ``draws`` number) instead. An empty board gets the centre
    point."""
    scores = heuristic_scores(planes, size, win_length, rule_code, table, weights)
    moves = np.empty(planes.shape[0], dtype=np.int64)
    for game in range(planes.shape[0]):
        least = 0 if noise_draws[game] < noise else scores[game].max()
        moves[game] = pick_at_least(scores[game], least, draws[game])
    return moves
