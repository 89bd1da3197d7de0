"""Stepping many searches together so that one evaluator call serves all of them.

Self-play runs one search per game; a network is fastest on big batches. Each call of
:func:`step_searches` gathers up to ``leaves_per_search`` leaves from every search (kept
apart inside each tree by virtual loss), evaluates them all in ONE ``evaluate`` call,
and hands each search its rows back.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from agents.search.evaluator import Evaluator, RolloutEvaluator, SearchEvaluator
from gomoku_env.planes import PLANE_COUNT

if TYPE_CHECKING:
    from agents.search.tree import SearchTree


def _check_outputs(
    priors: np.ndarray, values: np.ndarray, count: int, cells: int
) -> tuple[np.ndarray, np.ndarray]:
    priors = np.ascontiguousarray(priors, dtype=np.float32)
    values = np.ascontiguousarray(values, dtype=np.float32).reshape(-1)
    if priors.shape != (count, cells) or values.shape != (count,):
        raise ValueError(
            f"evaluator returned priors {priors.shape} and values {values.shape}; "
            f"expected ({count}, {cells}) and ({count},)"
        )
    return priors, values


def _leaf_limits(leaves_per_search: int | Sequence[int], count: int) -> list[int]:
    if isinstance(leaves_per_search, (int, np.integer)):
        limits = [int(leaves_per_search)] * count
    else:
        limits = [int(limit) for limit in leaves_per_search]
    if len(limits) != count or min(limits) < 1:
        raise ValueError(
            f"leaves_per_search must be at least 1 for each of the {count} searches, "
            f"got {leaves_per_search!r}"
        )
    return limits


def step_searches(
    searches: Sequence[SearchTree],
    evaluator: Evaluator,
    leaves_per_search: int | Sequence[int] = 8,
) -> int:
    """One round for every search in ``searches`` with one ``evaluator.evaluate`` call.

    ``leaves_per_search`` is the most leaves gathered from each search (one number for
    all, or one per search). Returns the simulations completed over all searches
    (evaluated leaves plus proven leaves backed up while gathering).
    """
    if not searches:
        return 0
    limits = _leaf_limits(leaves_per_search, len(searches))
    size = searches[0].game.board_size
    if any(search.game.board_size != size for search in searches):
        raise ValueError("searches stepped together must share one board size")
    capacity = sum(limits)
    planes = np.zeros((capacity, size, size, PLANE_COUNT), dtype=np.int8)
    masks = np.zeros((capacity, size * size), dtype=np.int8)
    offsets = []
    count = 0
    done = 0
    for search, limit in zip(searches, limits, strict=True):
        offsets.append(count)
        count += search.gather(planes, masks, count, limit)
        done += search.last_round_proven
    if count == 0:
        return done
    priors, values = evaluator.evaluate(planes[:count], masks[:count])
    priors, values = _check_outputs(priors, values, count, size * size)
    for search, offset in zip(searches, offsets, strict=True):
        search.apply(priors, values, offset)
    return done + count


def run_searches(
    searches: Sequence[SearchTree],
    evaluator: SearchEvaluator,
    simulations: int,
    leaves_per_search: int = 8,
    workers: int | None = None,
) -> list[int]:
    """Run ``simulations`` more simulations in each search (fewer if it gets solved);
    returns the simulations each did.

    With an :class:`Evaluator`, the searches are stepped together (one evaluator call
    per round). With a :class:`RolloutEvaluator` each search plays its own rollouts, the
    searches spread over ``workers`` threads (default: one per CPU; the kernels release
    the GIL).
    """
    if isinstance(evaluator, RolloutEvaluator):
        with ThreadPoolExecutor(workers or os.cpu_count() or 1) as pool:
            runs = pool.map(
                lambda search: search.run(
                    evaluator, simulations, batch=leaves_per_search
                ),
                searches,
            )
            return list(runs)
    start = [search.simulations for search in searches]
    while True:
        remaining = [
            simulations - (s.simulations - s0)
            for s, s0 in zip(searches, start, strict=True)
        ]
        active = [
            k for k, s in enumerate(searches) if remaining[k] > 0 and not s.is_solved
        ]
        if not active:
            break
        limits = [min(leaves_per_search, remaining[k]) for k in active]
        step_searches([searches[k] for k in active], evaluator, limits)
    pairs = zip(searches, start, strict=True)
    return [search.simulations - s0 for search, s0 in pairs]
