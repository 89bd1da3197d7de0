"""``gomoku gif FILE -o OUT``: a saved game as an animated GIF, one frame per move."""

from __future__ import annotations

import argparse

from gomoku_apps.cli.options import add_drawing_arguments, drawing_options
from gomoku_env.files import check_replaceable
from gomoku_env.records import GameRecord
from gomoku_env.render.gif import DEFAULT_FINAL_MS, DEFAULT_FRAME_MS, save_gif


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``gif`` command."""
    parser = subparsers.add_parser(
        "gif",
        help="render a saved game to an animated GIF",
        description="Write a game record as a looping GIF: the empty board, then one "
        "frame per move, the last held longer.",
    )
    parser.add_argument("file", help="a game record (as saved by 'gomoku play')")
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="the GIF file to write"
    )
    parser.add_argument(
        "--frame-ms",
        type=int,
        default=DEFAULT_FRAME_MS,
        metavar="MS",
        help="milliseconds per move",
    )
    parser.add_argument(
        "--final-ms",
        type=int,
        default=DEFAULT_FINAL_MS,
        metavar="MS",
        help="milliseconds on the final position",
    )
    add_drawing_arguments(parser)
    parser.set_defaults(handler=run_gif)


def run_gif(arguments: argparse.Namespace) -> int:
    """Render the record and say where the GIF went."""
    check_replaceable(arguments.output)  # before the frames are drawn
    record = GameRecord.load(arguments.file)
    path = save_gif(
        record,
        arguments.output,
        arguments.frame_ms,
        arguments.final_ms,
        drawing_options(arguments),
    )
    print(f"wrote {path} ({len(record.moves) + 1} frames)")
    return 0
