"""Running searches: the evaluator seam and the one driver, :func:`run_searches`.

The driver owns the budget: it runs rounds until each tree has its simulations, the
clock has run out, or the tree is solved. An evaluator only evaluates, as in
OpenSpiel's ``MCTSBot``. Leaves are valued one of two ways:

* no evaluator (``None``): each tree plays whole batches of simulations inside the
  compiled search, valuing leaves by rollouts of its options' ``rollout`` kind (no
  Python in between), several trees on threads;
* an :class:`Evaluator` (anything with ``evaluate(planes, masks)``:
  :class:`agents.search.pattern_evaluator.PatternEvaluator`,
  :class:`agents.alphazero.evaluator.NetworkEvaluator`, or your own): every tree
  gathers its leaves, ONE ``evaluate`` call values them all (:func:`step_searches`),
  each tree backs up its rows.

Your own evaluator needs nothing but ``evaluate``; the driver stops at the budget:

>>> from gomoku_env import Board, GameConfig
>>> from agents.search.settings import SearchOptions
>>> class Uniform:
...     def evaluate(self, planes, masks):
...         priors = masks / masks.sum(axis=1, keepdims=True)
...         return priors.astype(np.float32), np.zeros(len(masks), np.float32)
>>> game = GameConfig(board_size=7)
>>> tree = SearchTree(game, SearchOptions(formula="puct", distance=0), seed=0)
>>> tree.reset(Board(game))
>>> run_searches([tree], check_evaluator(Uniform()), simulations=32)
[32]
>>> check_evaluator(Uniform)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
TypeError: evaluator must be None (rollouts) or have evaluate(planes, masks), got <class ...>
"""

from __future__ import annotations

import os
import time as clock
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, runtime_checkable

import numpy as np

from agents.search.tree import SearchTree
from gomoku_env.planes import PLANE_COUNT

SECONDS_PER_ROUND = 0.005
"""With a time limit, a rollout round lasts about this long (one clock read a round)."""
UNLIMITED = 2**62


@runtime_checkable
class Evaluator(Protocol):
    """Priors and values for a batch of positions.

    ``planes`` is (batch, H, W, C) int8, channels last, the env's observation planes from
    the point of view of the side to move; ``masks`` is (batch, H*W) int8 with 1 on legal
    moves. Returns ``priors`` (batch, H*W) float32, zero off the mask and summing to 1,
    and ``values`` (batch,) float32 in [-1, 1] for the side to move.
    """

    def evaluate(
        self, planes: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]: ...


def check_evaluator(evaluator: object) -> Evaluator | None:
    """``evaluator`` if it is None (rollouts) or an :class:`Evaluator` instance.

    Raises:
        TypeError: it is neither (or is a class, not an instance).
    """
    if evaluator is None or (
        not isinstance(evaluator, type) and isinstance(evaluator, Evaluator)
    ):
        return evaluator
    raise TypeError(
        "evaluator must be None (rollouts) or have evaluate(planes, masks), "
        f"got {evaluator!r}"
    )


def round_size(
    tree: SearchTree, rollouts: bool, rate: float | None, seconds_left: float | None
) -> int:
    """The most simulations ``tree`` runs in its next round, given its last round's
    simulations per second (None before its first round) and the seconds left (None:
    no clock). With an evaluator: one batch of leaves. With rollouts: one batch first
    (one leaf while root noise waits for the root's expansion), then everything left,
    or about :data:`SECONDS_PER_ROUND` of rollouts under a clock; a batch is the
    tree's ``leaves_per_round``."""
    leaves_per_round = tree.options.leaves_per_round
    if not rollouts:
        return leaves_per_round
    if rate is None:
        return 1 if tree.noise_due else leaves_per_round
    if seconds_left is None:
        return UNLIMITED
    return max(leaves_per_round, int(rate * min(SECONDS_PER_ROUND, seconds_left)))


def run_round(
    trees: Sequence[SearchTree],
    evaluator: Evaluator | None,
    simulations: Sequence[int],
) -> None:
    """Up to ``simulations[k]`` simulations in ``trees[k]``, gathering its
    ``leaves_per_round`` leaves at a time: one :func:`step_searches` with an
    evaluator, else each tree's compiled rollouts (several trees on threads; the
    compiled rollouts release the GIL)."""
    if evaluator is not None:
        limits = [
            min(tree.options.leaves_per_round, count)
            for tree, count in zip(trees, simulations, strict=True)
        ]
        step_searches(trees, evaluator, limits)
        return
    if len(trees) == 1:
        trees[0].play_rollouts(simulations[0])
        return
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(SearchTree.play_rollouts, trees, simulations))


def run_searches(
    trees: Sequence[SearchTree],
    evaluator: Evaluator | None,
    simulations: int | Sequence[int] | None = None,
    time: float | None = None,
    until_first: bool = False,
) -> list[int]:
    """Search each tree until it has run ``simulations`` more simulations (one number
    for all, or one per tree) or ``time`` seconds have passed (whichever first; give
    at least one; a round, once started, ends), or its root is solved. Returns the
    simulations each tree ran.

    Every tree with simulations left takes part in the first round, a proven one too
    (its round finds no leaf); later rounds drop the trees that are done.

    ``evaluator`` values the leaves (None: the trees' rollouts, :func:`run_round`).
    A tree gathers at most its options' ``leaves_per_round`` leaves per round (kept
    apart by virtual loss). The budget's numbers are taken as given (an agent's
    :class:`agents.budget.Budget` validated them). ``until_first`` returns after the
    first round that leaves some tree done: self-play plays that game's move, then
    calls again.
    """
    rollouts = check_evaluator(evaluator) is None
    targets = _targets(trees, simulations, time)
    start = [tree.simulations for tree in trees]
    end = None if time is None else clock.perf_counter() + time
    sizes = [round_size(t, rollouts, None, None) for t in trees]
    active = [k for k, tree in enumerate(trees) if tree.simulations < targets[k]]
    while active:
        steps = [min(sizes[k], targets[k] - trees[k].simulations) for k in active]
        started = clock.perf_counter()
        run_round([trees[k] for k in active], evaluator, steps)
        now = clock.perf_counter()
        done = [
            trees[k].simulations >= targets[k] or trees[k].is_solved
            for k in range(len(trees))
        ]
        if (end is not None and now >= end) or (until_first and any(done)):
            break
        seconds_left = None if end is None else end - now
        for k, step in zip(active, steps, strict=True):
            rate = step / max(now - started, 1e-6)
            sizes[k] = round_size(trees[k], rollouts, rate, seconds_left)
        active = [k for k in active if not done[k]]
    return [tree.simulations - begun for tree, begun in zip(trees, start, strict=True)]


def search_target(tree: SearchTree, simulations: int | None) -> int:
    """The count of ``tree.simulations`` at which a search of ``simulations`` more
    stops: a move's budget counts the simulations it runs, not those its kept subtree
    holds already; unlimited for None (a clock alone stops it). The one place where a
    :class:`agents.budget.Budget`'s ``simulations`` become a tree's stop, for the
    agents (through :func:`run_searches`) and self-play alike."""
    return UNLIMITED if simulations is None else tree.simulations + int(simulations)


def _targets(
    trees: Sequence[SearchTree],
    simulations: int | Sequence[int] | None,
    time: float | None,
) -> list[int]:
    """Each tree's simulation count to stop at (unlimited under a time limit alone)."""
    if simulations is None:
        if time is None:
            raise ValueError("give simulations, time or both")
        return [search_target(tree, None) for tree in trees]
    counts = (
        [simulations] * len(trees)
        if isinstance(simulations, (int, np.integer))
        else list(simulations)
    )
    if len(counts) != len(trees):
        raise ValueError(
            f"simulations gives {len(counts)} budgets for {len(trees)} trees"
        )
    return [
        search_target(tree, count) for tree, count in zip(trees, counts, strict=True)
    ]


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


def _leaf_limits(leaves_per_round: int | Sequence[int], count: int) -> list[int]:
    if isinstance(leaves_per_round, (int, np.integer)):
        limits = [int(leaves_per_round)] * count
    else:
        limits = [int(limit) for limit in leaves_per_round]
    if len(limits) != count or min(limits) < 1:
        raise ValueError(
            f"leaves_per_round must be at least 1 for each of the {count} trees, "
            f"got {leaves_per_round!r}"
        )
    return limits


def step_searches(
    trees: Sequence[SearchTree],
    evaluator: Evaluator,
    leaves_per_round: int | Sequence[int] = 8,
) -> int:
    """One round for every tree in ``trees`` with one ``evaluator.evaluate`` call.

    ``leaves_per_round`` is the most leaves gathered from each tree (one number for
    all, or one per tree). Returns the simulations completed over all trees
    (evaluated leaves plus proven leaves backed up while gathering).
    """
    if not trees:
        return 0
    limits = _leaf_limits(leaves_per_round, len(trees))
    size = trees[0].game.board_size
    if any(tree.game.board_size != size for tree in trees):
        raise ValueError("trees stepped together must share one board size")
    capacity = sum(limits)
    planes = np.zeros((capacity, size, size, PLANE_COUNT), dtype=np.int8)
    masks = np.zeros((capacity, size * size), dtype=np.int8)
    offsets = []
    count = 0
    done = 0
    for tree, limit in zip(trees, limits, strict=True):
        offsets.append(count)
        count += tree.gather(planes, masks, count, limit)
        done += tree.last_round_proven
    if count == 0:
        return done
    priors, values = evaluator.evaluate(planes[:count], masks[:count])
    priors, values = _check_outputs(priors, values, count, size * size)
    for tree, offset in zip(trees, offsets, strict=True):
        tree.apply(priors, values, offset)
    return done + count
