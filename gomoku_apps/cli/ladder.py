"""``gomoku ladder A B C ...``: a round robin rated by Bradley-Terry, random at 0."""

from __future__ import annotations

import argparse
import sys

from gomoku_apps.cli.options import (
    add_games_argument,
    add_games_parser,
    arena_from_options,
    progress_from_options,
)
from gomoku_env.files import check_replaceable


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``ladder`` command."""
    parser = add_games_parser(
        subparsers,
        "ladder",
        "rate agents by a round robin (Markdown, CSV and PNG)",
        "Every pair of agents plays a match; ratings come from a "
        "Bradley-Terry fit with draws, in Elo with 95% intervals, the anchor at 0. "
        "Writes PREFIX.md, PREFIX.csv and PREFIX.png and prints the Markdown.",
    )
    parser.add_argument("agents", nargs="+", metavar="AGENT", help="agent specs")
    add_games_argument(parser, 20, "per pair of agents", "--games-per-pair")
    parser.add_argument(
        "--anchor", default="random", metavar="AGENT", help="the agent rated 0"
    )
    parser.add_argument(
        "--output",
        metavar="PREFIX",
        help="output files' prefix (default: ladder-SIZExSIZE-RULE)",
    )
    parser.add_argument(
        "--draw-model",
        choices=("half", "davidson"),
        default="half",
        help="a draw is half a win each way (Elo's sense) or Davidson's model",
    )
    parser.add_argument("--no-plot", action="store_true", help="skip the PNG plot")
    parser.set_defaults(handler=run_ladder_command)


def run_ladder_command(arguments: argparse.Namespace) -> int:
    """Play the round robin, write the files and print the table."""
    from gomoku_apps.arena import run_ladder
    from gomoku_apps.arena.ladder_report import ladder_markdown, write_ladder
    from gomoku_apps.arena.runner import RunStoppedError

    arena = arena_from_options(arguments)
    size = arena.config.board_size
    prefix = arguments.output or f"ladder-{size}x{size}-{arena.config.rule.value}"
    for suffix in (".csv", ".md", ".png"):  # refused before the games, not after
        check_replaceable(f"{prefix}{suffix}")
    progress = progress_from_options(arguments, f"{len(arguments.agents)} agents")
    try:
        ladder = run_ladder(
            arena,
            arguments.agents,
            arguments.games,
            arguments.anchor,
            progress,
            arguments.draw_model,
        )
    except RunStoppedError as stopped:
        saved = " (records of the finished games saved)" if arguments.records else ""
        print(
            f"gomoku: error: the ladder stopped: {stopped.reason}{saved}",
            file=sys.stderr,
        )
        return 1
    finally:
        progress.close()
    print(ladder_markdown(ladder), end="")
    for path in write_ladder(ladder, prefix, plot=not arguments.no_plot):
        print(f"wrote {path}")
    return 0
