"""``gomoku rate SPEC``: one agent's rating on a reference scale, anchors held fixed.

Examples::

    gomoku rate 'mcts:simulations=200' --board-size 9
    gomoku rate heuristic --board-size 9 --games 20 --jobs 2 --anchors random mcts:simulations=400
"""

from __future__ import annotations

import argparse
import sys

from gomoku_apps.cli.options import (
    add_games_argument,
    add_games_parser,
    arena_from_options,
    progress_from_options,
)

DEFAULT_GAMES = 4


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``rate`` command."""
    parser = add_games_parser(
        subparsers,
        "rate",
        "rate one agent on the stored reference scale",
        "Play SPEC against the anchors of the stored reference ladder for the board "
        "size (9x9 or 15x15, freestyle, win length 5; the ratings of "
        "docs/ladder-9x9.csv and docs/ladder-15x15.csv, shipped with the package), "
        "hold their ratings fixed and fit SPEC's rating with a 95% interval on "
        f"that scale. The default of {DEFAULT_GAMES} games per anchor is a quick "
        "estimate; more games narrow the interval.",
    )
    parser.add_argument("spec", metavar="SPEC", help="the agent to rate")
    add_games_argument(parser, DEFAULT_GAMES, "against each anchor")
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
        help="rate against the agents of this ladder CSV (as written by "
        "'gomoku ladder --output'), played under the game options given here "
        "(default: the stored reference ladder)",
    )
    parser.set_defaults(handler=run_rate)


def run_rate(arguments: argparse.Namespace) -> int:
    """Play the games against the anchors and print the table and the rating."""
    from gomoku_apps.arena.rate import format_rating, rate_agent
    from gomoku_apps.arena.reference import read_scale, reference_scale
    from gomoku_apps.arena.runner import RunStoppedError

    arena = arena_from_options(arguments)
    if arguments.reference:
        scale = read_scale(arguments.reference, arena.config)
    else:
        scale = reference_scale(arena.config.board_size)
    if arguments.anchors:
        scale = scale.select(arguments.anchors)
    label = f"{arguments.spec} vs {len(scale.anchors)} anchors"
    progress = progress_from_options(arguments, label)
    try:
        rated = rate_agent(arena, arguments.spec, scale, arguments.games, progress)
    except RunStoppedError as stopped:
        print(f"gomoku: error: the rating stopped: {stopped.reason}", file=sys.stderr)
        return 1
    finally:
        progress.close()
    print(format_rating(rated), end="")
    return 0
