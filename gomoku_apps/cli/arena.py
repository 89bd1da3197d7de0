"""``gomoku arena A B``: a match between two agents, with an optional SPRT stop."""

from __future__ import annotations

import argparse

from gomoku_apps.cli.options import (
    add_games_argument,
    add_games_parser,
    arena_from_options,
    progress_from_options,
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``arena`` command."""
    parser = add_games_parser(
        subparsers,
        "arena",
        "play a match between two agents and rate the result",
        "Play a match of agent A against agent B: colours alternate, "
        "openings come from the opening book, and the report gives W/D/L by colour, "
        "A's score and Elo difference with 95% intervals, time used and forfeits.",
    )
    parser.add_argument("a", metavar="A", help="first agent spec (the one rated)")
    parser.add_argument("b", metavar="B", help="second agent spec")
    add_games_argument(parser, 200, "in the match (fewer if --sprt decides sooner)")
    sprt = parser.add_argument_group("sequential test (stops the match once decided)")
    sprt.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("ELO0", "ELO1"),
        help="test H0: A is ELO0 stronger against H1: A is ELO1 stronger",
    )
    sprt.add_argument(
        "--alpha", type=float, default=0.05, help="how often a false H1 is accepted"
    )
    sprt.add_argument(
        "--beta", type=float, default=0.05, help="how often a false H0 is accepted"
    )
    parser.set_defaults(handler=run_arena)


def run_arena(arguments: argparse.Namespace) -> int:
    """Play the match and print its report; exit status 1 if it stopped early."""
    from gomoku_apps.arena import SPRT
    from gomoku_apps.arena.report import format_match

    arena = arena_from_options(arguments)
    test = None
    if arguments.sprt is not None:
        elo0, elo1 = arguments.sprt
        test = SPRT(elo0, elo1, arguments.alpha, arguments.beta)
    progress = progress_from_options(arguments, f"{arguments.a} vs {arguments.b}")
    try:
        match = arena.match(arguments.a, arguments.b, arguments.games, test, progress)
    finally:
        progress.close()
    print(format_match(match), end="")
    return 0 if match.stopped is None else 1
