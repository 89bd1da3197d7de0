"""Agent families on a rating scale: which anchors a rating meets, and what each says.

A scale's ratings hold across the pairs it was fitted on, and matchups between agents
of different kinds (MCTS, the pattern heuristic, PPO, alpha-beta, AlphaZero) are where
they stop being transitive: an agent trained against the heuristic may read ~150 Elo
higher against it than against MCTS anchors of the same rating. So a rating should
meet several families, and say when they disagree.

An anchor's family is its agent's name, the spec's part before ``:`` (``mcts``,
``heuristic``, ``alphabeta``...). :func:`round_anchors` chooses the anchors of a round
of ``gomoku rate --margin``: the nearest anchor of each of the ``spread`` families
nearest the running estimate, among the anchors within :data:`REACH` of it (where a
game still tells something: an expected score between 0.1 and 0.9), then the nearest
others until the round has two. ``spread=1`` is the rule from before families: the two
anchors nearest the estimate. :func:`family_ratings` fits the rating again from each
family's games alone, and :func:`family_lines` reports them, naming the families whose
ratings differ by more than their intervals allow.

>>> kinds = ["random", "mcts", "mcts", "heuristic", "alphabeta"]
>>> round_anchors([0, 100, 120, 400, 900], kinds, 105, spread=3)
[1, 0, 3]
>>> round_anchors([0, 100, 120, 400, 900], kinds, 105, spread=1)
[1, 2]
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from agents.scales.anchored_fit import AnchoredRating, fit_anchored_rating
from agents.scales.reference import Anchor, family
from agents.scales.stats import format_elo
from gomoku_apps.arena.results import Tally

REACH = 382.0
"""Elo from the estimate within which an anchor still teaches a round something: a
gap of 382 is an expected score of 0.1 (or 0.9)."""
SPREAD = 3
"""Families a round of ``gomoku rate --margin`` meets where the scale has them."""
ROUND_ANCHORS = 2
"""Anchors a round plays at least."""


def round_anchors(
    ratings: Sequence[float], families: Sequence[str], estimate: float, spread: int
) -> list[int]:
    """The indices of the anchors a round plays (see the module docstring), nearest
    first within each step; ties go to the lower index."""
    by_distance = sorted(
        range(len(ratings)), key=lambda k: (abs(ratings[k] - estimate), k)
    )
    chosen: list[int] = []
    for k in by_distance:
        met = {families[j] for j in chosen}
        within = abs(ratings[k] - estimate) <= REACH or not chosen
        if within and families[k] not in met and len(met) < spread:
            chosen.append(k)
    for k in by_distance:
        if len(chosen) >= ROUND_ANCHORS:
            break
        if k not in chosen:
            chosen.append(k)
    return chosen


@dataclass(frozen=True)
class FamilyRating:
    """The rating that the games against one family's anchors give on their own."""

    family: str
    games: int
    rating: AnchoredRating


def family_ratings(
    anchors: Sequence[Anchor], tallies: Sequence[Tally], worth: Sequence[float]
) -> list[FamilyRating]:
    """A rating from each family's games (families met in no game left out), in the
    order of the families' first anchors; each anchor's games weigh what they are
    ``worth`` as independent games (fewer where games replay one another)."""
    found = []
    for name in dict.fromkeys(family(anchor.spec) for anchor in anchors):
        mine = [
            (anchor.rating, record, games)
            for anchor, record, games in zip(anchors, tallies, worth, strict=True)
            if family(anchor.spec) == name and record.games
        ]
        if mine:
            rating = fit_anchored_rating(
                [rating for rating, _, _ in mine],
                [record.score * games for _, record, games in mine],
                [games for _, _, games in mine],
            )
            found.append(
                FamilyRating(
                    name, sum(r.games for _, r, _ in mine), _sweep(rating, mine)
                )
            )
    return found


def _sweep(
    rating: AnchoredRating, mine: Sequence[tuple[float, Tally, float]]
) -> AnchoredRating:
    """``rating`` with its interval open on the far side when every game of the
    family was won (or every one lost): the fit's virtual draws keep a sweep's
    estimate finite, but its games bound it on one side only, so a sweep of a few
    games against weaker anchors cannot disagree with a stronger family's rating."""
    scores = {record.score for _, record, _ in mine}
    if scores == {1.0}:
        return dataclasses.replace(rating, high=math.inf)
    if scores == {0.0}:
        return dataclasses.replace(rating, low=-math.inf)
    return rating


def disagree(first: FamilyRating, second: FamilyRating) -> bool:
    """Whether two families' ratings differ by more than their intervals allow: the
    gap exceeds the two facing half-widths added in quadrature."""
    low, high = sorted((first.rating, second.rating), key=lambda r: r.rating)
    allowed = math.hypot(low.high - low.rating, high.rating - high.low)
    return high.rating - low.rating > allowed


def _end(elo: float) -> str:
    """An end of a family's interval: ``unbounded`` for a sweep's open side."""
    return format_elo(elo) if math.isfinite(elo) else "unbounded"


def family_lines(ratings: Sequence[FamilyRating]) -> list[str]:
    """The report's lines on the families: each one's rating, then the pairs that
    disagree; when the games met one family only, a line that says so (where a scale
    has one family alone near an estimate, as `9x9-v1` has MCTS from +1200 to +1960,
    the rating cannot show how the agent does against the others)."""
    if not ratings:
        return []
    if len(ratings) == 1:
        (only,) = ratings
        return [
            f"one family met: {only.family} ({only.games} games); how the agent "
            "scores against the scale's other families is not measured here"
        ]
    parts = [
        f"{r.family} {format_elo(r.rating.rating)} ({_end(r.rating.low)} … "
        f"{_end(r.rating.high)}, {r.games} games)"
        for r in ratings
    ]
    lines = ["by family: " + "; ".join(parts)]
    split = [
        f"{a.family} and {b.family}"
        for i, a in enumerate(ratings)
        for b in ratings[i + 1 :]
        if disagree(a, b)
    ]
    if split:
        lines.append(
            "the families disagree beyond their intervals: "
            + ", ".join(split)
            + " (the scale's ratings do not carry across them for this agent)"
        )
    return lines
