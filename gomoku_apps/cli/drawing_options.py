"""Command-line options shared by the commands that draw boards (play, replay, gif)."""

from __future__ import annotations

import argparse

from gomoku_env.render.geometry import MAX_CELL_PIXELS, MIN_CELL_PIXELS
from gomoku_env.render.style import RenderOptions


def add_drawing_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --cell-size and --move-numbers to ``parser``."""
    parser.add_argument(
        "--cell-size",
        type=int,
        default=None,
        metavar="PIXELS",
        help=f"pixels between lines, {MIN_CELL_PIXELS} to {MAX_CELL_PIXELS} "
        "(default: about 600 pixels for the board)",
    )
    parser.add_argument(
        "--move-numbers",
        action="store_true",
        help="write the move number on each stone",
    )


def drawing_options(arguments: argparse.Namespace) -> RenderOptions:
    """The :class:`RenderOptions` chosen on the command line."""
    return RenderOptions(
        cell_size=arguments.cell_size, move_numbers=arguments.move_numbers
    )
