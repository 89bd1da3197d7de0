"""Running searches: the evaluator seam and the one driver, :func:`run_searches`.

The evaluator object decides how a round runs, as OpenSpiel's evaluators decide what a
leaf costs. Two kinds, peers to the search:

* a :class:`RolloutEvaluator` runs its own rounds: each tree plays whole batches of
  simulations inside the compiled search (rollouts, no Python in between), several
  trees on threads;
* an :class:`Evaluator` (anything with ``evaluate(planes, masks)``:
  :class:`agents.search.pattern_evaluator.PatternEvaluator`,
  :class:`agents.alphazero.evaluator.NetworkEvaluator`, or your own) is wrapped once,
  by :func:`search_rounds`, in :class:`BatchedRounds`: every tree gathers its leaves,
  ONE ``evaluate`` call values them all (:func:`step_searches`), each tree backs up
  its rows.

Both meet the driver through :class:`SearchRounds`; nothing here asks which kind it has.

>>> RolloutEvaluator().rollout, RolloutEvaluator(rollout="random").formula
('tactical', 'uct')
"""

from __future__ import annotations

import inspect
import os
import time as clock
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

import numpy as np

from agents.search.tree import SearchTree
from gomoku_env.errors import check_number
from gomoku_env.planes import PLANE_COUNT

ROLLOUTS = ("tactical", "random")
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


class SearchRounds(Protocol):
    """What :func:`run_searches` asks of an evaluator: how its rounds run."""

    formula: str
    """The selection formula its priors suit: ``"uct"`` (uniform) or ``"puct"``."""

    def round_simulations(
        self,
        tree: SearchTree,
        leaves_per_round: int,
        rate: float | None,
        seconds_left: float | None,
    ) -> int:
        """The most simulations ``tree`` runs in its next round, given its last
        round's simulations per second (None before its first round) and the seconds
        left (None: no time limit)."""
        ...

    def run_round(
        self,
        trees: Sequence[SearchTree],
        simulations: Sequence[int],
        leaves_per_round: int,
    ) -> None:
        """Up to ``simulations[k]`` simulations in ``trees[k]``, gathering
        ``leaves_per_round`` leaves at a time."""
        ...


@dataclass(frozen=True)
class RolloutEvaluator:
    """A leaf's value is the result of one game played out from it; priors are uniform.

    Attributes:
        rollout: ``"tactical"`` rollouts take a win in one and block the opponent's,
            else play at random (slower, far more telling); ``"random"`` rollouts are
            uniformly random.
        workers: threads for several trees searched together (None: one per CPU; the
            compiled rollouts release the GIL).
    """

    rollout: str = "tactical"
    workers: int | None = None
    formula: ClassVar[str] = "uct"

    def __post_init__(self) -> None:
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, got {self.rollout!r}")
        if self.workers is not None:
            check_number("workers", self.workers, minimum=1, integer=True)

    @property
    def tactical(self) -> bool:
        """Whether the rollouts take and block wins in one."""
        return self.rollout == "tactical"

    def round_simulations(
        self,
        tree: SearchTree,
        leaves_per_round: int,
        rate: float | None,
        seconds_left: float | None,
    ) -> int:
        """One batch of leaves first (one leaf while root noise waits for the root's
        expansion), then everything left, or about :data:`SECONDS_PER_ROUND` of
        rollouts under a time limit."""
        if rate is None:
            return 1 if tree.noise_due else leaves_per_round
        if seconds_left is None:
            return UNLIMITED
        return max(leaves_per_round, int(rate * min(SECONDS_PER_ROUND, seconds_left)))

    def run_round(
        self,
        trees: Sequence[SearchTree],
        simulations: Sequence[int],
        leaves_per_round: int,
    ) -> None:
        """Each tree plays its rollouts in one compiled call; several on threads."""
        if len(trees) == 1:
            trees[0].play_rollouts(self.tactical, simulations[0], leaves_per_round)
            return
        with ThreadPoolExecutor(self.workers or os.cpu_count() or 1) as pool:
            list(
                pool.map(
                    lambda tree, count: tree.play_rollouts(
                        self.tactical, count, leaves_per_round
                    ),
                    trees,
                    simulations,
                )
            )


@dataclass(frozen=True)
class BatchedRounds:
    """The rounds of an :class:`Evaluator`: one ``evaluate`` call per round for the
    leaves of every tree (:func:`step_searches`); its priors call for PUCT."""

    evaluator: Evaluator
    formula: ClassVar[str] = "puct"

    def round_simulations(
        self,
        tree: SearchTree,
        leaves_per_round: int,
        rate: float | None,
        seconds_left: float | None,
    ) -> int:
        """One batch of leaves, every round."""
        return leaves_per_round

    def run_round(
        self,
        trees: Sequence[SearchTree],
        simulations: Sequence[int],
        leaves_per_round: int,
    ) -> None:
        """One :func:`step_searches` over ``trees``."""
        limits = [min(leaves_per_round, count) for count in simulations]
        step_searches(trees, self.evaluator, limits)


SearchEvaluator = SearchRounds | Evaluator
"""Whatever a search can evaluate its leaves with."""


def search_rounds(evaluator: object) -> SearchRounds:
    """The rounds ``evaluator`` runs: its own when it has ``run_round`` (a
    :class:`RolloutEvaluator`), else :class:`BatchedRounds` around its ``evaluate``.

    Raises:
        TypeError: ``evaluator`` is neither (or is a class, not an instance).
    """
    if not inspect.isclass(evaluator):
        if callable(getattr(evaluator, "run_round", None)):
            return evaluator  # type: ignore[return-value]
        if callable(getattr(evaluator, "evaluate", None)):
            return BatchedRounds(evaluator)  # type: ignore[arg-type]
    raise TypeError(
        "evaluator must be a RolloutEvaluator or have evaluate(planes, masks), "
        f"got {evaluator!r}"
    )


def run_searches(
    trees: Sequence[SearchTree],
    evaluator: SearchEvaluator,
    simulations: int | Sequence[int] | None = None,
    time: float | None = None,
    leaves_per_round: int = 1,
    until_first: bool = False,
) -> list[int]:
    """Search each tree until it has run ``simulations`` more simulations (one number
    for all, or one per tree) or ``time`` seconds have passed (whichever first; give
    at least one; a round, once started, ends), or its root is solved. Returns the
    simulations each tree ran.

    Every tree with simulations left takes part in the first round, a proven one too
    (its round finds no leaf); later rounds drop the trees that are done.

    The evaluator decides how a round runs (:func:`search_rounds`).
    ``leaves_per_round`` is the most leaves a tree gathers per round (kept apart by
    virtual loss). ``until_first`` returns after the first round that leaves some
    tree done: self-play plays that game's move, then calls again.
    """
    rounds = search_rounds(evaluator)
    targets = _targets(trees, simulations, time)
    check_number("leaves_per_round", leaves_per_round, minimum=1, integer=True)
    start = [tree.simulations for tree in trees]
    end = None if time is None else clock.perf_counter() + time
    sizes = [rounds.round_simulations(t, leaves_per_round, None, None) for t in trees]
    active = [k for k, tree in enumerate(trees) if tree.simulations < targets[k]]
    while active:
        steps = [min(sizes[k], targets[k] - trees[k].simulations) for k in active]
        started = clock.perf_counter()
        rounds.run_round([trees[k] for k in active], steps, leaves_per_round)
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
            sizes[k] = rounds.round_simulations(
                trees[k], leaves_per_round, rate, seconds_left
            )
        active = [k for k in active if not done[k]]
    return [tree.simulations - begun for tree, begun in zip(trees, start, strict=True)]


def _targets(
    trees: Sequence[SearchTree],
    simulations: int | Sequence[int] | None,
    time: float | None,
) -> list[int]:
    """Each tree's simulation count to stop at (unlimited under a time limit alone)."""
    if time is not None:
        check_number("time", time, minimum=0)
    if simulations is None:
        if time is None:
            raise ValueError("give simulations, time or both")
        return [UNLIMITED] * len(trees)
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
        tree.simulations + check_number("simulations", count, minimum=1, integer=True)
        for tree, count in zip(trees, counts, strict=True)
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
