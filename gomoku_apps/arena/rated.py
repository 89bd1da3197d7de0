"""A finished rating: the games against a scale's anchors, the fit and its report.

:func:`rated` fits the new agent's rating from its games with the anchors' ratings
held fixed (:func:`~agents.scales.anchored_fit.fit_anchored_rating`), the games
against each anchor weighed as the independent games they are worth (a game replayed
move for move adds nothing: :func:`~gomoku_apps.arena.results.effective_games`);
:func:`format_rating` is the report that ``gomoku rate`` prints and a rating card
keeps. :mod:`gomoku_apps.arena.rate` plays the games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from agents.scales.anchored_fit import AnchoredRating, fit_anchored_rating
from agents.scales.reference import Anchor, RatingScale
from agents.scales.stats import format_elo
from gomoku_apps.arena.families import FamilyRating, family_lines, family_ratings
from gomoku_apps.arena.results import (
    Tally,
    effective_games,
    games_between,
    head_to_head,
    tally,
)
from gomoku_apps.arena.runner import GameResult
from gomoku_env.config import GameConfig


@dataclass(frozen=True)
class RatedAgent:
    """A finished rating run: the games against each anchor and the fitted rating."""

    name: str
    """The new agent's name in the games: its spec, ``#2`` added if an anchor's too."""
    spec: str
    scale: RatingScale
    anchor_names: tuple[str, ...]
    """The anchors' names in the games: their specs."""
    games_per_anchor: int | None
    """Games against each anchor; None when
    :func:`~gomoku_apps.arena.rate.rate_to_margin` chose them."""
    games: tuple[GameResult, ...]
    rating: AnchoredRating
    """The rating on the scale and its interval from the games."""
    anchors_margin: float
    """The anchors' margins against random, weighed by what their games tell."""
    replaying: bool = False
    """The run stopped because its last round only replayed earlier games move for
    move: deterministic play from a book that came round again, which more games
    would only repeat (:func:`~gomoku_apps.arena.rate.rate_to_margin`)."""

    @property
    def margin(self) -> float:
        """The half-width of the rating's 95% interval on the scale (the wider side)."""
        return max(
            self.rating.rating - self.rating.low, self.rating.high - self.rating.rating
        )

    @property
    def against_random(self) -> tuple[float, float]:
        """The 95% interval of the rating against ``random`` = 0: the games' interval
        widened on each side by the anchors' margins (in quadrature)."""
        rating = self.rating
        return (
            rating.rating - math.hypot(rating.rating - rating.low, self.anchors_margin),
            rating.rating
            + math.hypot(rating.high - rating.rating, self.anchors_margin),
        )

    def tally(self, anchor_name: str) -> Tally:
        """The new agent's W/D/L against the anchor named ``anchor_name``."""
        return head_to_head(self.games, self.name, anchor_name)

    def worth(self, anchor_name: str) -> float:
        """The games against ``anchor_name`` as independent games: fewer than were
        played where games replay one another move for move
        (:func:`~gomoku_apps.arena.results.effective_games`)."""
        return effective_games(games_between(self.games, self.name, anchor_name))

    @property
    def families(self) -> list[FamilyRating]:
        """The rating from each anchor family's games alone."""
        tallies = [self.tally(name) for name in self.anchor_names]
        worth = [self.worth(name) for name in self.anchor_names]
        return family_ratings(self.scale.anchors, tallies, worth)


def rules_text(config: GameConfig) -> str:
    """The rules in words, as a report names them: ``15x15 freestyle, win length 5``."""
    size = config.board_size
    return f"{size}x{size} {config.rule.value}, win length {config.win_length}"


def rated_agent(
    name: str,
    spec: str,
    scale: RatingScale,
    anchor_names: Sequence[str],
    games_per_anchor: int | None,
    results: Sequence[GameResult],
    replaying: bool = False,
) -> RatedAgent:
    """The rating that ``results`` give, and the anchors' weighed margin. Games that
    replay one another count as the independent games they are worth: the score
    against an anchor stays, its weight shrinks (a deterministic agent meeting a
    deterministic anchor from a book of 12 openings learns 24 games' worth at most)."""
    met = [games_between(results, name, anchor) for anchor in anchor_names]
    worth = [effective_games(games) for games in met]
    scores = [tally(games, name).score if games else 0.0 for games in met]
    rating = fit_anchored_rating(
        [anchor.rating for anchor in scale.anchors],
        [score * games for score, games in zip(scores, worth, strict=True)],
        worth,
    )
    return RatedAgent(
        name,
        spec,
        scale,
        tuple(anchor_names),
        games_per_anchor,
        tuple(results),
        rating,
        _anchors_margin(rating.rating, scale.anchors, worth),
        replaying,
    )


def _anchors_margin(
    rating: float, anchors: Sequence[Anchor], worth: Sequence[float]
) -> float:
    """The anchors' margins weighed by the information their games carry about an
    agent rated ``rating``: games (as many as they are worth) times p(1 - p) at the
    expected score p."""
    weights = []
    for anchor, games in zip(anchors, worth, strict=True):
        expected = 1 / (1 + 10 ** ((anchor.rating - rating) / 400))
        weights.append(games * expected * (1 - expected))
    total = sum(weights)
    if total == 0:
        return 0.0
    return sum(w * a.margin for w, a in zip(weights, anchors, strict=True)) / total


def _anchor_rows(rated: RatedAgent) -> list[str]:
    width = max(len("anchor"), *(len(name) for name in rated.anchor_names))
    rows = [f"{'anchor':{width}}  {'rating':>7}  {'games':>5}  {'W/D/L':>8}  score"]
    for name, anchor in zip(rated.anchor_names, rated.scale.anchors, strict=True):
        record = rated.tally(name)
        if record.games == 0:
            continue
        wdl = f"{record.wins}/{record.draws}/{record.losses}"
        rows.append(
            f"{name:{width}}  {format_elo(anchor.rating):>7}  {record.games:>5}  "
            f"{wdl:>8}  {record.score:.3f}"
        )
    return rows


def _caveats(rated: RatedAgent) -> list[str]:
    low, high = rated.against_random
    lines = [
        f"Against random = 0, counting the anchors' own margins (±"
        f"{rated.anchors_margin:.0f} as the games weigh them): {format_elo(low)} … "
        f"{format_elo(high)}. Two ratings on {rated.scale.name} compare with the "
        "first interval."
    ]
    replayed = [
        f"{name}: {rated.tally(name).games} games, worth {rated.worth(name):.1f}"
        for name in rated.anchor_names
        if rated.worth(name) < rated.tally(name).games - 1e-9
    ]
    if replayed:
        lines.append(
            "Games replayed move for move count as the independent games they are "
            "worth (deterministic play from the same opening): " + "; ".join(replayed)
        )
    if rated.games_per_anchor is not None and rated.games_per_anchor < 16:
        lines.append(
            f"{rated.games_per_anchor} games per anchor give a quick estimate; "
            "--margin E plays until the interval is ±E."
        )
    return lines


def format_rating(rated: RatedAgent) -> str:
    """The report of ``rated``: the games against each anchor and the rating."""
    config, rating = rated.scale.config, rated.rating
    percent = round(100 * rating.confidence)
    played = (
        f"{len(rated.games)} games"
        if rated.games_per_anchor is None
        else f"{rated.games_per_anchor} games per anchor"
    )
    lines = [
        f"{rated.spec} on {rated.scale.name} ({rules_text(config)}): {played}",
        *_anchor_rows(rated),
        f"rating {format_elo(rating.rating)} ({percent}% CI "
        f"{format_elo(rating.low)} … {format_elo(rating.high)}, "
        f"±{rated.margin:.0f}) on {rated.scale.name}, {len(rated.games)} games",
        *family_lines(rated.families),
        *_caveats(rated),
    ]
    return "\n".join(lines) + "\n"
