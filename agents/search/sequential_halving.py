"""Gumbel root search: sequential halving over the Gumbel-top-k root moves.

Danihelka et al. (2022), "Policy improvement by planning with Gumbel": at the root,
sample ``k`` moves without replacement by ``g + logits`` (``g`` Gumbel noise, the
logits the evaluator's priors), split the search's simulations into ``ceil(log2 k)``
phases, give every surviving move an equal share of a phase, and keep the better half
by ``g + logits + sigma(q)`` after each. The move played is the last survivor; the
training target is ``softmax(logits + sigma(completed q))`` over every root move,
a policy improvement even when a move got one simulation or none: with 16 or fewer
simulations a move, where AlphaZero's visit counts say little.

The schedule only chooses the first move of each descent (the compiled search's
``root_moves``); below it the search is the tree's PUCT, unchanged. It reads the
root's visits from the tree, so proven leaves, collisions and a kept subtree need no
bookkeeping here.
"""

from __future__ import annotations

import math

import numpy as np

from agents.search.arrays import DRAW, LOSS, UNKNOWN, WIN, TreeArrays

VISIT_SCALE = 50.0
"""``c_visit`` of the paper's ``sigma(q) = (c_visit + max N) * c_scale * q``."""
VALUE_SCALE = 1.0
"""``c_scale`` of the same, for values in [0, 1] (the tree's [-1, 1], rescaled)."""
NO_PRIOR = 1e-12
"""The smallest prior taken as a probability, so that its logarithm is finite."""


class SequentialHalving:
    """The schedule of one search's root: which move the next descents start with.

    Args:
        tree: the tree's arrays; the root must be expanded.
        simulations: the search's budget, shared out over the phases.
        actions: the most moves sampled at the root (``k``; fewer when the root has
            fewer moves).
        rng: draws the Gumbel noise.
    """

    def __init__(
        self,
        tree: TreeArrays,
        simulations: int,
        actions: int,
        rng: np.random.Generator,
    ) -> None:
        self._tree = tree
        start, count = int(tree.edge_start[0]), int(tree.edge_count[0])
        if start < 0 or count < 1:
            raise ValueError("sequential halving needs an expanded root with moves")
        self.moves = tree.edge_move[start : start + count].astype(np.int64)
        priors = tree.edge_prior[start : start + count].astype(np.float64)
        self.logits = np.log(np.maximum(priors, NO_PRIOR))
        self.gumbel = rng.gumbel(size=count)
        sampled = min(actions, count)
        self.survivors = np.argsort(-(self.gumbel + self.logits), kind="stable")[
            :sampled
        ]
        self._phases_left = math.ceil(math.log2(sampled)) if sampled > 1 else 0
        self._budget_left = int(simulations)
        self._targets = np.zeros(0, dtype=np.int64)
        self._start_phase()

    def _start_phase(self) -> None:
        """Give each survivor its share of this phase, as a visit count to reach."""
        if self._phases_left == 0:
            self._targets = np.zeros(0, dtype=np.int64)
            return
        share = max(1, self._budget_left // (self._phases_left * self.survivors.size))
        self._budget_left -= share * self.survivors.size
        self._targets = self.visits()[self.survivors] + share

    def next_moves(self, count: int) -> np.ndarray:
        """The first moves of the next (at most) ``count`` descents (int64): the
        survivors still due visits in this phase, taken in turns, the most due first;
        halves the survivors when the phase's visits are all made. Once one move
        survives, every descent starts with it."""
        while self._targets.size:
            due = self._targets - self.visits()[self.survivors]
            if (due > 0).any():
                return self._in_turns(due, count)
            self._halve()
        return np.full(count, self.chosen_move(), dtype=np.int64)

    def _in_turns(self, due: np.ndarray, count: int) -> np.ndarray:
        order = np.argsort(-due, kind="stable")
        moves = self.moves[self.survivors[order]]
        rounds = np.arange(int(due.max()))[:, None] < due[order][None, :]
        return np.broadcast_to(moves, rounds.shape)[rounds][:count].astype(np.int64)

    def _halve(self) -> None:
        keep = math.ceil(self.survivors.size / 2)
        order = np.argsort(-self._scores()[self.survivors], kind="stable")
        self.survivors = self.survivors[order[:keep]]
        self._phases_left = self._phases_left - 1 if keep > 1 else 0
        self._start_phase()

    def visits(self) -> np.ndarray:
        """Visits of each root move (int64, in the root's edge order)."""
        children = self._children()
        counts = np.zeros(children.size, dtype=np.int64)
        seen = children >= 0
        counts[seen] = self._tree.visits[children[seen]]
        return counts

    def completed_values(self) -> np.ndarray:
        """Each root move's value for the side to move, in [-1, 1]: its mean (or its
        proven result) where visited; elsewhere the prior-weighted mean over the
        visited moves (the paper's ``v_mix`` for many visits), 0 when none is."""
        children = self._children()
        visits = self.visits()
        values = np.zeros(children.size, dtype=np.float64)
        seen = visits > 0
        values[seen] = self._tree.mean[children[seen]]
        proven = np.zeros(children.size, dtype=np.int64)
        proven[children >= 0] = self._tree.status[children[children >= 0]]
        values[proven == WIN] = 1.0
        values[proven == LOSS] = -1.0
        values[proven == DRAW] = 0.0
        known = seen | (proven != UNKNOWN)
        if known.any() and not known.all():
            weights = np.exp(self.logits[known])
            values[~known] = np.dot(weights, values[known]) / weights.sum()
        return values

    def _scores(self) -> np.ndarray:
        """``logits + sigma(completed q)`` of every root move, Gumbel noise added."""
        return self.gumbel + self._improved_logits()

    def _improved_logits(self) -> np.ndarray:
        scale = (VISIT_SCALE + self.visits().max()) * VALUE_SCALE
        return self.logits + scale * (self.completed_values() + 1.0) / 2.0

    def chosen_move(self) -> int:
        """The move to play: the best survivor by ``g + logits + sigma(q)``."""
        best = self.survivors[np.argmax(self._scores()[self.survivors])]
        return int(self.moves[best])

    def improved_policy(self, cells: int) -> np.ndarray:
        """The training target over ``cells`` (float32, summing to 1, zero off the
        root's moves): ``softmax(logits + sigma(completed q))``."""
        logits = self._improved_logits()
        weights = np.exp(logits - logits.max())
        policy = np.zeros(cells, dtype=np.float32)
        policy[self.moves] = weights / weights.sum()
        return policy

    def _children(self) -> np.ndarray:
        start = int(self._tree.edge_start[0])
        return self._tree.edge_child[start : start + self.moves.size].astype(np.int64)
