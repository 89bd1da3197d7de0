"""Rating one agent on a stored scale: games against its anchors, their ratings fixed.

Rerunning a reference ladder to place one new agent costs a round robin; this plays
the new agent against each anchor of a :class:`~agents.scales.reference.RatingScale`
(``games_per_anchor`` games, colours alternating, openings from the arena's book) and
fits only the new agent's rating (:mod:`agents.scales.anchored_fit`).

>>> from gomoku_env import GameConfig
>>> from gomoku_apps.arena.match import Arena
>>> from agents.scales.reference import Anchor, RatingScale
>>> config = GameConfig(board_size=7)
>>> scale = RatingScale("a toy scale", config, (Anchor("random", 0.0, 0.0),))
>>> rated = rate_agent(Arena(config, openings="none"), "random", scale, 2)
>>> rated.tally("random").games
2

Two intervals, for two questions. On a frozen scale version the anchors' ratings are
fixed numbers, so a rating on ``9x9-v1`` is known as well as the games against them
say: that is :attr:`RatedAgent.rating`'s profile-likelihood interval, the one to
compare two ratings on the same version with, and the one ``--margin`` aims at. As a
rating against ``random`` = 0, the anchors' own uncertainty adds: each anchor's rating
carries a 95% margin against ``random`` (the scale file's ``margin``, growing along
the chain), and :attr:`RatedAgent.against_random` widens the interval by the margins of
the anchors played, weighed by how much their games tell about this agent (its games
times ``p(1 - p)``), added in quadrature.

:func:`rate_to_margin` plays until the rating's half-width is at most a margin: each
round plays two games (one each colour, from the next book opening) against each anchor
that :func:`~gomoku_apps.arena.families.round_anchors` chooses near the running
estimate (one of each of ``spread`` families within reach, at least two anchors), then
fits again. The report adds each family's own rating and names families that disagree
(:mod:`gomoku_apps.arena.families`). With agents on work budgets, the same seed plays
the same games and prints the same rating, whatever ``jobs``.

A long run can stop and go on: with ``resume``, each game that the arena's records
folder already holds (written by the same run before it stopped) is read back instead
of played, so the resumed run plays the rest of the same games and ends with the same
rating as one that never stopped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agents.scales.reference import RatingScale
from gomoku_apps.arena.families import SPREAD, family, round_anchors
from gomoku_apps.arena.match import Arena, pair_tasks, pairing_tasks, player_names
from gomoku_apps.arena.rated import RatedAgent, rated_agent, rules_text
from gomoku_apps.arena.records import recorded_result
from gomoku_apps.arena.results import game_identity
from gomoku_apps.arena.runner import GameResult, GameTask, ResultCallback
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number


def rate_agent(
    arena: Arena,
    spec: str,
    scale: RatingScale,
    games_per_anchor: int = 4,
    on_result: ResultCallback | None = None,
    resume: bool = False,
) -> RatedAgent:
    """Play ``spec`` against every anchor of ``scale`` and fit its rating there
    (with ``resume``, taking the games already in the arena's records folder).

    Raises:
        ValueError: the arena's rules differ from the scale's, a bad
            ``games_per_anchor``, a bad spec (the new agent's or an anchor's), or
            ``resume`` without a records folder or with another run's records.
        RunStoppedError: the run ended early (a Ctrl-C, a dead worker).
    """
    check_number("games_per_anchor", games_per_anchor, minimum=1, integer=True)
    name, anchor_names = _prepare(arena, spec, scale)
    return _fixed_run(
        arena,
        (name, spec),
        scale,
        anchor_names,
        games_per_anchor,
        _player(arena, resume, on_result),
    )


PlayTasks = Callable[[Sequence[GameTask]], Sequence[GameResult]]
"""How a run's games are played: the arena's ``play``, or a card's replay."""


def _player(
    arena: Arena, resume: bool, on_result: ResultCallback | None = None
) -> PlayTasks:
    """The arena's ``play``; with ``resume``, one that first reads back each game its
    records folder holds (:func:`~gomoku_apps.arena.records.recorded_result`) and
    plays only the others."""
    if not resume:
        return lambda tasks: arena.play(tasks, on_result)
    directory = arena.records_dir
    if directory is None:
        raise ValueError(
            "resuming a rating needs the records folder of the run it goes on with"
        )

    def play(tasks: Sequence[GameTask]) -> list[GameResult]:
        known = {}
        for task in tasks:
            result = recorded_result(directory, task)
            if result is not None:
                known[task.index] = result
        new = arena.play([t for t in tasks if t.index not in known], on_result)
        results = known | {result.index: result for result in new}
        return [results[task.index] for task in tasks]

    return play


def _fixed_run(
    arena: Arena,
    player: tuple[str, str],
    scale: RatingScale,
    anchor_names: Sequence[str],
    games_per_anchor: int,
    play: PlayTasks,
) -> RatedAgent:
    """:func:`rate_agent`'s games, played by ``play``, and their rating."""
    pairings = [
        (player, (anchor_name, anchor.spec))
        for anchor_name, anchor in zip(anchor_names, scale.anchors, strict=True)
    ]
    results = play(pairing_tasks(arena, pairings, games_per_anchor))
    return rated_agent(*player, scale, anchor_names, games_per_anchor, results)


ROUND_GAMES = 2
"""Games a round of :func:`rate_to_margin` plays against each anchor it chooses."""
MAX_GAMES = 4000
""":func:`rate_to_margin`'s default cap on the games it plays."""

RoundCallback = Callable[["RatedAgent"], None]


def rate_to_margin(
    arena: Arena,
    spec: str,
    scale: RatingScale,
    margin: float,
    max_games: int = MAX_GAMES,
    on_round: RoundCallback | None = None,
    spread: int = SPREAD,
    resume: bool = False,
) -> RatedAgent:
    """Play ``spec`` against the anchors most telling of it until the 95% interval's
    half-width is at most ``margin`` Elo (or ``max_games`` games are played: the last
    round is cut to end there, so no more are played than asked).

    The first round plays anchors near the scale's middle; each next round those near
    the estimate so far, of ``spread`` families where the scale has them within reach.
    ``on_round`` sees the rating after each round. With ``resume``, the games already
    in the arena's records folder are read back, not played again.

    Raises:
        ValueError: a margin that is not a finite number > 0, a bad ``max_games``,
            rules that differ from the scale's, a bad spec, or ``resume`` without a
            records folder or with another run's records.
        RunStoppedError: the run ended early (a Ctrl-C, a dead worker).
    """
    if isinstance(margin, bool) or not (
        isinstance(margin, (int, float)) and math.isfinite(margin) and margin > 0
    ):
        raise ValueError(f"margin must be a finite number of Elo > 0, got {margin!r}")
    check_number("max_games", max_games, minimum=1, integer=True)
    check_number("spread", spread, minimum=1, integer=True)
    name, anchor_names = _prepare(arena, spec, scale)
    play = _player(arena, resume)
    with arena.workers():  # one set of processes for every round
        return _margin_run(
            arena,
            (name, spec),
            scale,
            anchor_names,
            RatingPlan(None, margin, max_games, spread),
            play,
            on_round,
        )


def _margin_run(
    arena: Arena,
    player: tuple[str, str],
    scale: RatingScale,
    anchor_names: Sequence[str],
    plan: RatingPlan,
    play: PlayTasks,
    on_round: RoundCallback | None = None,
) -> RatedAgent:
    """:func:`rate_to_margin`'s rounds, played by ``play``, until the interval is at
    most ``plan``'s margin wide or its ``max_games`` are played."""
    margin, max_games = plan.margin, plan.max_games
    ratings = [anchor.rating for anchor in scale.anchors]
    estimate = (min(ratings) + max(ratings)) / 2
    results: list[GameResult] = []
    while True:
        nearest = round_anchors(
            ratings, [family(a.spec) for a in scale.anchors], estimate, plan.spread
        )
        tasks = _round_tasks(arena, player, scale, anchor_names, nearest, len(results))
        seen = {game_identity(game) for game in results}
        new = play(tasks[: max_games - len(results)])
        results += new
        # Only replays: the estimate stays, so every next round would replay too.
        replaying = all(game_identity(game) in seen for game in new)
        rated = rated_agent(*player, scale, anchor_names, None, results, replaying)
        if on_round is not None:
            on_round(rated)
        estimate = rated.rating.rating
        if rated.margin <= margin or len(results) >= max_games or replaying:
            return rated


@dataclass(frozen=True)
class RatingPlan:
    """Which games a rating plays: ``games_per_anchor`` against every anchor
    (:func:`rate_agent`), or rounds until the interval is ±``margin`` or
    ``max_games`` are played, meeting ``spread`` families (:func:`rate_to_margin`)."""

    games_per_anchor: int | None = None
    margin: float | None = None
    max_games: int = MAX_GAMES
    spread: int = SPREAD


def rerun_rating(
    arena: Arena, spec: str, scale: RatingScale, plan: RatingPlan, play: PlayTasks
) -> RatedAgent:
    """The rating run that ``plan`` describes, its games played by ``play`` instead of
    the arena: the same tasks in the same order (colours, openings, seeds) and the same
    fit, for ``gomoku verify`` to replay a card's games against. Builds no agent."""
    *anchor_names, name = player_names([a.spec for a in scale.anchors] + [spec])
    if plan.games_per_anchor is not None:
        return _fixed_run(
            arena, (name, spec), scale, anchor_names, plan.games_per_anchor, play
        )
    if plan.margin is None:
        raise ValueError("a rating plan needs games_per_anchor or a margin")
    return _margin_run(arena, (name, spec), scale, anchor_names, plan, play)


def _round_tasks(
    arena: Arena,
    player: tuple[str, str],
    scale: RatingScale,
    anchor_names: Sequence[str],
    nearest: Sequence[int],
    first_index: int,
) -> list[GameTask]:
    """A round's games: :data:`ROUND_GAMES` against each anchor of ``nearest``."""
    tasks: list[GameTask] = []
    for k in nearest:
        index = first_index + len(tasks)
        opening = arena.openings[index // 2 % len(arena.openings)]
        players = (player, (anchor_names[k], scale.anchors[k].spec))
        tasks += pair_tasks(
            index,
            players,
            ROUND_GAMES,
            [opening],
            arena.config,
            arena.seed,
            arena.move_time_limit,
        )
    return tasks


def _prepare(arena: Arena, spec: str, scale: RatingScale) -> tuple[str, list[str]]:
    """Check the rules and specs; the new agent's name and the anchors' in games."""
    check_rules(arena.config, scale)
    specs = [*(anchor.spec for anchor in scale.anchors), spec]
    arena.check_specs(specs)
    *anchor_names, name = player_names(specs)
    return name, anchor_names


def check_rules(config: GameConfig, scale: RatingScale) -> None:
    """ValueError unless ``config`` is the rules ``scale`` was played under."""
    if config != scale.config:
        raise ValueError(
            f"{scale.name} was played under {rules_text(scale.config)}, not "
            f"{rules_text(config)}; use its rules or another scale"
        )
