"""Running one search to its budget: a number of simulations, seconds, or a proof.

Rollout rounds run in compiled chunks; with a time limit each chunk is sized from the
measured rate to last about :data:`SECONDS_PER_CHUNK`, so the deadline is kept without
a clock read per simulation. An :class:`agents.search.evaluator.Evaluator` gets one
call per round of ``batch`` leaves.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from agents.search.batch import step_searches
from agents.search.evaluator import RolloutEvaluator, SearchEvaluator

if TYPE_CHECKING:
    from agents.search.tree import SearchTree

SECONDS_PER_CHUNK = 0.005
UNLIMITED = 2**62


def run_search(
    tree: SearchTree,
    evaluator: SearchEvaluator,
    simulations: int | None,
    time_limit: float | None,
    batch: int,
) -> int:
    """Search until ``simulations`` are done or ``time_limit`` seconds pass (whichever
    first; at least one must be given), or the root is solved; the simulations done."""
    if simulations is None and time_limit is None:
        raise ValueError("give simulations, time_limit or both")
    if batch < 1:
        raise ValueError(f"batch must be at least 1, got {batch!r}")
    target = simulations if simulations is not None else UNLIMITED
    deadline = time.perf_counter() + time_limit if time_limit is not None else None
    done = 0
    # Root noise is mixed in once the root is expanded: that first round runs alone.
    chunk = 1 if tree.noise_due else batch
    while done < target and not tree.is_solved:
        step = min(chunk, target - done)
        started = time.perf_counter()
        done += search_round(tree, evaluator, step, batch)
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            break
        chunk = next_chunk(evaluator, batch, step / max(now - started, 1e-6), deadline)
    return done


def search_round(
    tree: SearchTree, evaluator: SearchEvaluator, simulations: int, batch: int
) -> int:
    """Up to ``simulations`` simulations, ``batch`` leaves at a time; the number run."""
    if isinstance(evaluator, RolloutEvaluator):
        return tree.play_rollouts(evaluator, simulations, batch)
    return step_searches([tree], evaluator, min(batch, simulations))


def next_chunk(
    evaluator: SearchEvaluator, batch: int, rate: float, deadline: float | None
) -> int:
    """Simulations for the next round: a batch for an evaluator; for rollouts, all of
    them without a deadline, else about :data:`SECONDS_PER_CHUNK` at ``rate``."""
    if not isinstance(evaluator, RolloutEvaluator):
        return batch
    if deadline is None:
        return UNLIMITED
    budget = min(SECONDS_PER_CHUNK, deadline - time.perf_counter())
    return max(batch, int(rate * budget))
