"""A match as text: W/D/L by colour, score and Elo with intervals, time, forfeits."""

from __future__ import annotations

from agents.game import COLORS
from agents.scales.stats import format_elo_interval
from gomoku_apps.arena.match import MatchResult
from gomoku_apps.arena.results import effective_games

_FORFEITS_LISTED = 10


def _record_rows(match: MatchResult) -> list[str]:
    first = match.names[0]
    rows = [f"{'':14}{'games':>7}{'wins':>7}{'draws':>7}{'losses':>8}{'score':>8}"]
    for label, color in (
        ("as black", COLORS[0]),
        ("as white", COLORS[1]),
        ("total", None),
    ):
        record = match.tally(first, color)
        score = f"{record.score:.3f}" if record.games else "-"
        rows.append(
            f"{label:14}{record.games:>7}{record.wins:>7}{record.draws:>7}"
            f"{record.losses:>8}{score:>8}"
        )
    return rows


def _time_rows(match: MatchResult) -> list[str]:
    rows = []
    for name in match.names:
        used = match.thinking_time(name)
        rows.append(
            f"  {name}: {used.seconds:.2f} s over {used.moves} moves "
            f"({1000 * used.per_move:.2f} ms per move)"
        )
    return rows


def _forfeit_rows(match: MatchResult) -> list[str]:
    games = match.forfeits()
    rows = [
        f"  game {game.index}: {game.forfeited_by} forfeited "
        f"({game.outcome.reason}: {game.outcome.detail})"
        for game in games[:_FORFEITS_LISTED]
    ]
    if len(games) > _FORFEITS_LISTED:
        rows.append(f"  … and {len(games) - _FORFEITS_LISTED} more")
    return rows or ["  none"]


def _sprt_rows(match: MatchResult) -> list[str]:
    test = match.sprt
    if test is None:
        return []
    record = match.tally(match.names[0])
    lower, upper = test.bounds
    llr = test.llr(record.wins, record.draws, record.losses)
    verdict = {
        "H1": f"H1 accepted: {match.names[0]} is stronger by about {test.elo1:g} Elo",
        "H0": f"H0 accepted: {match.names[0]} is not stronger by {test.elo1:g} Elo",
        "continue": "undecided when the game limit was reached",
    }[match.sprt_decision.value]
    return [
        f"SPRT elo0={test.elo0:g} elo1={test.elo1:g} alpha={test.alpha:g} "
        f"beta={test.beta:g}: LLR {llr:.2f} in ({lower:.2f}, {upper:.2f}) -> {verdict}"
    ]


def format_match(match: MatchResult) -> str:
    """A human-readable report of ``match`` from the first agent's point of view."""
    first, second = match.names
    config = match.config
    stopped = [f"stopped early: {match.stopped}"] if match.stopped else []
    if not match.games:
        return "\n".join([f"{first} vs {second}: no game finished", *stopped]) + "\n"
    summary = match.summary()
    percent = round(100 * summary.confidence)
    lines = [
        f"{first} vs {second}: {summary.games} games, {config.board_size}x"
        f"{config.board_size} {config.rule.value}, win length {config.win_length}",
        f"results of {first}:",
        *_record_rows(match),
        f"score {summary.score:.3f} ({percent}% CI {summary.score_low:.3f} … "
        f"{summary.score_high:.3f})",
        f"Elo difference {format_elo_interval(summary)}",
        f"distinct games: {match.distinct_games()} of {summary.games} (the rest "
        "replay one of them move for move; the intervals count the games as "
        f"{effective_games(match.games):.1f} independent ones)"
        if match.distinct_games() < summary.games
        else f"distinct games: all {summary.games}",
        "thinking time:",
        *_time_rows(match),
        f"forfeits ({len(match.forfeits())}, lost by the forfeiting agent):",
        *_forfeit_rows(match),
        *_sprt_rows(match),
        *stopped,
    ]
    return "\n".join(lines) + "\n"
