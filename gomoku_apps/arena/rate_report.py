"""A rating run as text: one row per anchor, then the rating with its interval."""

from __future__ import annotations

from gomoku_apps.arena.rate import RatedAgent
from gomoku_apps.arena.stats import format_elo


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
