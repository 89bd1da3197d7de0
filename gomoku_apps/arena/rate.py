"""Rating one agent on a stored scale: games against its anchors, their ratings fixed.

Rerunning a reference ladder to place one new agent costs a round robin; this plays
the new agent against each anchor of a :class:`~gomoku_apps.arena.reference.RatingScale`
(``games_per_anchor`` games, colours alternating, openings from the arena's book) and
fits only the new agent's rating (:mod:`gomoku_apps.arena.anchored_fit`).

>>> from gomoku_env import GameConfig
>>> from gomoku_apps.arena.match import Arena
>>> from gomoku_apps.arena.reference import Anchor, RatingScale
>>> config = GameConfig(board_size=7)
>>> scale = RatingScale("a toy scale", config, (Anchor("random", 0.0, 0.0),))
>>> rated = rate_agent(Arena(config, openings="none"), "random", scale, 2)
>>> rated.tally("random").games
2

The rating's interval counts this run's games only: the anchors' own ratings are
uncertain too (their ``margin``), which shifts every rating on the scale alike and so
matters when comparing with ratings from elsewhere, not among agents on this scale.
"""

from __future__ import annotations

from dataclasses import dataclass

from gomoku_apps.arena.anchored_fit import AnchoredRating, fit_anchored_rating
from gomoku_apps.arena.match import Arena, pairing_tasks, player_names
from gomoku_apps.arena.reference import RatingScale
from gomoku_apps.arena.results import Tally, head_to_head
from gomoku_apps.arena.runner import GameResult, ResultCallback
from gomoku_apps.arena.stats import format_elo
from gomoku_env.config import GameConfig
from gomoku_env.errors import check_number


@dataclass(frozen=True)
class RatedAgent:
    """A finished rating run: the games against each anchor and the fitted rating."""

    name: str
    """The new agent's name in the games: its spec, ``#2`` added if an anchor's too."""
    spec: str
    scale: RatingScale
    anchor_names: tuple[str, ...]
    """The anchors' names in the games: their specs."""
    games_per_anchor: int
    games: tuple[GameResult, ...]
    rating: AnchoredRating

    def tally(self, anchor_name: str) -> Tally:
        """The new agent's W/D/L against the anchor named ``anchor_name``."""
        return head_to_head(self.games, self.name, anchor_name)


def _rules(config: GameConfig) -> str:
    size = config.board_size
    return f"{size}x{size} {config.rule.value}, win length {config.win_length}"


def rate_agent(
    arena: Arena,
    spec: str,
    scale: RatingScale,
    games_per_anchor: int = 4,
    on_result: ResultCallback | None = None,
) -> RatedAgent:
    """Play ``spec`` against every anchor of ``scale`` and fit its rating there.

    Raises:
        ValueError: the arena's rules differ from the scale's, a bad
            ``games_per_anchor``, or a bad spec (the new agent's or an anchor's).
        RunStoppedError: the run ended early (a Ctrl-C, a dead worker).
    """
    check_number("games_per_anchor", games_per_anchor, minimum=1, integer=True)
    if arena.config != scale.config:
        raise ValueError(
            f"{scale.name} was played under {_rules(scale.config)}, not "
            f"{_rules(arena.config)}; use its rules or another scale"
        )
    specs = [*(anchor.spec for anchor in scale.anchors), spec]
    arena.check_specs(specs)
    *anchor_names, name = player_names(specs)
    new_agent = (name, spec)
    pairings = [
        (new_agent, (anchor_name, anchor.spec))
        for anchor_name, anchor in zip(anchor_names, scale.anchors, strict=True)
    ]
    results = arena.play(pairing_tasks(arena, pairings, games_per_anchor), on_result)
    tallies = [head_to_head(results, name, anchor) for anchor in anchor_names]
    rating = fit_anchored_rating(
        [anchor.rating for anchor in scale.anchors],
        [record.wins + record.draws / 2 for record in tallies],
        [record.games for record in tallies],
    )
    return RatedAgent(
        name,
        spec,
        scale,
        tuple(anchor_names),
        games_per_anchor,
        tuple(results),
        rating,
    )


def _anchor_rows(rated: RatedAgent) -> list[str]:
    width = max(len("anchor"), *(len(name) for name in rated.anchor_names))
    rows = [f"{'anchor':{width}}  {'rating':>7}  {'games':>5}  {'W/D/L':>8}  score"]
    for name, anchor in zip(rated.anchor_names, rated.scale.anchors, strict=True):
        record = rated.tally(name)
        wdl = f"{record.wins}/{record.draws}/{record.losses}"
        rows.append(
            f"{name:{width}}  {format_elo(anchor.rating):>7}  {record.games:>5}  "
            f"{wdl:>8}  {record.score:.3f}"
        )
    return rows


def _caveats(rated: RatedAgent) -> list[str]:
    lines = []
    if rated.games_per_anchor < 16:
        lines.append(
            f"{rated.games_per_anchor} games per anchor give a quick estimate; "
            f"--games {4 * rated.games_per_anchor} would halve the interval's width."
        )
    margins = [anchor.margin for anchor in rated.scale.anchors if anchor.margin > 0]
    if margins:
        lines.append(
            "The interval counts these games only; the anchors' own ratings carry "
            f"95% margins of ±{min(margins):.0f} to ±{max(margins):.0f} Elo."
        )
    return lines


def format_rating(rated: RatedAgent) -> str:
    """The report of ``rated``: the games against each anchor and the rating."""
    config, rating = rated.scale.config, rated.rating
    percent = round(100 * rating.confidence)
    lines = [
        f"{rated.spec} on {rated.scale.name} ({config.rule.value}, win length "
        f"{config.win_length}): {rated.games_per_anchor} games per anchor",
        *_anchor_rows(rated),
        f"rating {format_elo(rating.rating)} ({percent}% CI "
        f"{format_elo(rating.low)} … {format_elo(rating.high)}) on {rated.scale.name}",
        *_caveats(rated),
    ]
    return "\n".join(lines) + "\n"
