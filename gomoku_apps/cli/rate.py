"""``gomoku rate SPEC``: one agent's rating on a versioned reference scale.

Examples::

    gomoku rate heuristic --board-size 9 --margin 50
    gomoku rate 'mcts:simulations=200' --board-size 9 --games 20 --jobs 2
    gomoku rate random --board-size 7 --reference my-ladder.csv --games 4
    gomoku rate heuristic --board-size 9 --margin 30 --records games --resume
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import TYPE_CHECKING

from gomoku_apps.cli.options import (
    add_games_argument,
    add_games_parser,
    arena_from_options,
    games_count,
    positive_float,
    positive_int,
    progress_from_options,
)

if TYPE_CHECKING:
    from gomoku_apps.arena.match import Arena
    from gomoku_apps.arena.rate import RatingPlan
    from gomoku_apps.arena.rated import RatedAgent

DEFAULT_GAMES = 4


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``rate`` command."""
    parser = add_games_parser(
        subparsers,
        "rate",
        "rate one agent on a versioned reference scale",
        "Play SPEC against the anchors of a reference scale (the newest shipped one "
        "for the board size, freestyle, win length 5, unless --scale names another), "
        "hold their ratings fixed and fit SPEC's rating against random = 0, with a "
        "95% interval that counts the anchors' own uncertainty. --margin E plays "
        "until that interval is ±E, choosing the anchors nearest the running "
        f"estimate; otherwise --games N (default {DEFAULT_GAMES}) against every "
        "anchor. The result names the scale's version; cite it with the command "
        "printed last (agents on work budgets give the same rating on any machine).",
    )
    parser.add_argument("spec", metavar="SPEC", help="the agent to rate")
    how = parser.add_mutually_exclusive_group()
    add_games_argument(how, None, f"against each anchor (default {DEFAULT_GAMES})")
    how.add_argument(
        "--margin",
        type=positive_float,
        metavar="ELO",
        help="play until the 95%% interval's half-width is at most ELO",
    )
    parser.add_argument(
        "--max-games",
        type=games_count,
        metavar="N",
        help="with --margin: stop after N games even if the interval is wider "
        "(default 4000)",
    )
    parser.add_argument(
        "--spread",
        type=positive_int,
        metavar="N",
        help="with --margin: each round meets the nearest anchor of N families "
        "within reach of the estimate, at least two anchors (default 3; 1 plays the "
        "two nearest anchors, as ratings before families did)",
    )
    parser.add_argument(
        "--scale",
        metavar="VERSION",
        help="the shipped scale to rate on, e.g. 9x9-v1 (default: the newest for "
        "the board size)",
    )
    parser.add_argument(
        "--anchors",
        nargs="+",
        metavar="AGENT",
        help="play only these anchors: full specs, or agent names such as "
        "'heuristic' where one anchor has that name (default: all)",
    )
    parser.add_argument(
        "--reference",
        metavar="CSV",
        help="rate against the agents of this scale or ladder CSV (as written by "
        "'gomoku ladder --output'), played under the game options given here",
    )
    parser.add_argument(
        "--trust-reference",
        action="store_true",
        help="let the --reference file name python: and engine: agents, which run "
        "code or a program of the file's choosing (refused without this flag)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on with a stopped run of this same command: each game its --records "
        "folder already holds is read back instead of played again (a forfeited one "
        "is played again), so the run ends with the rating it would have had",
    )
    parser.add_argument(
        "--card",
        metavar="FILE",
        help="also write a rating card to FILE: the versions, the command, the seed "
        "and every game, for 'gomoku verify FILE' to replay (an existing FILE is "
        "refused without --force)",
    )
    parser.set_defaults(handler=run_rate)


def run_rate(arguments: argparse.Namespace) -> int:
    """Play the games against the anchors and print the table and the rating."""
    from agents.scales.reference import read_scale, reference_scale
    from gomoku_apps.arena.rate import rate_agent, rate_to_margin
    from gomoku_apps.arena.rated import format_rating
    from gomoku_apps.arena.runner import RunStoppedError

    check_rate_options(arguments)
    plan = rating_plan(arguments)
    arena = arena_from_options(arguments, arguments.resume)
    if arguments.reference:
        scale = read_scale(arguments.reference, arena.config, arguments.trust_reference)
    else:
        size = arena.config.board_size
        scale = reference_scale(None if arguments.scale else size, arguments.scale)
    if arguments.anchors:
        scale = scale.select(arguments.anchors)
    progress = progress_from_options(arguments, f"{arguments.spec} on {scale.name}")
    try:
        if plan.margin is None:
            rated = rate_agent(
                arena,
                arguments.spec,
                scale,
                plan.games_per_anchor,
                progress,
                arguments.resume,
            )
        else:
            rated = rate_to_margin(
                arena,
                arguments.spec,
                scale,
                plan.margin,
                plan.max_games,
                spread=plan.spread,
                resume=arguments.resume,
            )
    except RunStoppedError as stopped:
        print(f"gomoku: error: the rating stopped: {stopped.reason}", file=sys.stderr)
        return 1
    finally:
        progress.close()
    print(format_rating(rated), end="")
    if plan.margin is not None and rated.margin > plan.margin:
        print(short_of_margin(arguments, rated))
    command = reproducing_command(arguments, scale.name)
    print("reproduce: " + command)
    if arguments.card:
        write_rating_card(arguments, rated, arena, plan, command)
    return 0


def check_rate_options(arguments: argparse.Namespace) -> None:
    """Refuse options that do not go together, before any game or file is touched."""
    from gomoku_apps.arena.cards import check_card_path

    if arguments.max_games is not None and arguments.margin is None:
        raise ValueError("--max-games goes with --margin")
    if arguments.spread is not None and arguments.margin is None:
        raise ValueError("--spread goes with --margin")
    if arguments.reference and arguments.scale:
        raise ValueError("give --scale or --reference, not both")
    if arguments.card:
        if arguments.reference:
            raise ValueError(
                "--card needs a shipped scale (--scale): nobody else can replay the "
                "anchors of a --reference file"
            )
        check_card_path(arguments.card, arguments.force)
    if arguments.resume and not arguments.records:
        raise ValueError(
            "--resume needs --records: the folder of the run to go on with"
        )


def rating_plan(arguments: argparse.Namespace) -> RatingPlan:
    """The games the command line asks for: ``--games`` against every anchor, or
    rounds to ``--margin`` (with ``--max-games`` and ``--spread``), defaults filled."""
    from gomoku_apps.arena.rate import MAX_GAMES, SPREAD, RatingPlan

    if arguments.margin is None:
        return RatingPlan(arguments.games or DEFAULT_GAMES)
    return RatingPlan(
        None,
        arguments.margin,
        arguments.max_games or MAX_GAMES,
        arguments.spread or SPREAD,
    )


def short_of_margin(arguments: argparse.Namespace, rated: RatedAgent) -> str:
    """Why a run to ``--margin`` stopped before it: only replayed games, or the cap."""
    from gomoku_apps.arena.rate import MAX_GAMES

    if rated.replaying:
        return (
            f"stopped after {len(rated.games)} games before ±{arguments.margin:g}: "
            "the last round only replayed earlier games move for move (deterministic "
            "play from the same openings), so more games would not narrow the "
            "interval; --openings FILE with more openings would"
        )
    cap = (
        f"--max-games {arguments.max_games}"
        if arguments.max_games
        else f"the default --max-games {MAX_GAMES}"
    )
    return (
        f"stopped after {len(rated.games)} games ({cap}) before ±{arguments.margin:g}"
    )


def write_rating_card(
    arguments: argparse.Namespace,
    rated: RatedAgent,
    arena: Arena,
    plan: RatingPlan,
    command: str,
) -> None:
    """Write the ``--card`` file of a finished rating and say how to check it."""
    from gomoku_apps.arena.cards import rating_card, write_card

    command_line = getattr(arguments, "command_line", ["gomoku", "rate"])
    card = rating_card(rated, arena, arguments.openings, plan, command_line, command)
    write_card(arguments.card, card)
    print(
        f"card: {arguments.card} ({shlex.join(['gomoku', 'verify', arguments.card])})"
    )


def reproducing_command(arguments: argparse.Namespace, scale: str) -> str:
    """The ``gomoku rate`` command that plays the same games again: every option that
    decides them, spelt out (``--jobs``, ``--ray``, ``--records`` and the progress
    bar do not)."""
    words = ["gomoku", "rate", arguments.spec]
    words += ["--board-size", str(arguments.board_size)]
    words += ["--win-length", str(arguments.win_length), "--rule", arguments.rule.value]
    if arguments.reference:
        words += ["--reference", arguments.reference]
        if arguments.trust_reference:
            words.append("--trust-reference")
    else:
        words += ["--scale", scale]
    if arguments.anchors:
        words += ["--anchors", *arguments.anchors]
    if arguments.margin is None:
        words += ["--games", str(arguments.games or DEFAULT_GAMES)]
    else:
        words += ["--margin", f"{arguments.margin:g}"]
        if arguments.max_games:
            words += ["--max-games", str(arguments.max_games)]
        if arguments.spread:
            words += ["--spread", str(arguments.spread)]
    if arguments.openings != "book":
        words += ["--openings", arguments.openings]
    if arguments.move_time is not None:
        words += ["--move-time", f"{arguments.move_time:g}"]
    words += ["--seed", str(arguments.seed)]
    return shlex.join(words)
