"""``gomoku replay FILE``: step through a saved game (Right/Left, Home/End)."""

from __future__ import annotations

import argparse

from gomoku_apps.cli.options import add_drawing_arguments, drawing_options
from gomoku_env.records import GameRecord
from gomoku_env.render.renderer import import_pygame, missing_display


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``replay`` command."""
    parser = subparsers.add_parser(
        "replay",
        help="step through a saved game in a window",
        description="Show a game record move by move: Right/Left step, Home/End jump; "
        "Esc or Q quits.",
    )
    parser.add_argument("file", help="a game record (as saved by 'gomoku play')")
    parser.add_argument(
        "--start", type=int, default=0, metavar="N", help="moves shown at first"
    )
    parser.add_argument(
        "--fps", type=float, default=30, help="window frames per second"
    )
    add_drawing_arguments(parser)
    parser.set_defaults(handler=run_replay)


def run_replay(arguments: argparse.Namespace) -> int:
    """Open the replay window on the record and run it until it is closed."""
    problem = missing_display("gomoku replay")
    if problem:
        raise ValueError(problem)
    record = GameRecord.load(arguments.file)
    import_pygame()
    from gomoku_apps.gui.replay_app import ReplayApp

    ReplayApp(record, drawing_options(arguments), arguments.fps, arguments.start).run()
    return 0
