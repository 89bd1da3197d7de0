"""``gomoku play``: play in a window against an agent, another person, or watch agents.

Examples::

    gomoku play --black human --white random
    gomoku play --black random --white random --delay 0.5 --board-size 9
"""

from __future__ import annotations

import argparse

from agents.base import warm_up
from agents.specs.parse import make_agent, registered_names
from gomoku_apps.cli.options import (
    add_drawing_arguments,
    add_rules_arguments,
    drawing_options,
    exit_after_thinking,
)
from gomoku_apps.gui.session import HUMAN, GameSession, Seat
from gomoku_env.config import GameConfig
from gomoku_env.render.renderer import import_pygame, missing_display

WATCH_DELAY = 0.5


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``play`` command."""
    names = ", ".join([HUMAN, *registered_names()])
    parser = subparsers.add_parser(
        "play",
        help="play in a window (people and agents)",
        description="Play Gomoku in a window. Click a point to move; Undo (U), "
        "Resign (R), New game (N), Swap colours (C), Save (S); Esc or Q quits.",
    )
    for color, default in (("black", HUMAN), ("white", "random")):
        parser.add_argument(
            f"--{color}",
            default=default,
            metavar="SPEC",
            help=f"who plays {color}: 'human' or an agent spec such as "
            f"'random' (names: {names})",
        )
    add_rules_arguments(parser, board_size=15)
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="seeds the agents (black N, white N+1)",
    )
    parser.add_argument(
        "-o",
        "--output",
        "--save",
        metavar="FILE",
        help="the game record's file: Save (S) writes it, and a finished game is "
        "saved there (default: gomoku-TIME.txt, on Save only)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"least seconds per agent move (default: {WATCH_DELAY} with no person "
        "playing, else 0)",
    )
    parser.add_argument(
        "--fps", type=float, default=30, help="window frames per second"
    )
    add_drawing_arguments(parser)
    parser.set_defaults(handler=run_play)


def make_seat(spec: str, config: GameConfig, seed: int | None) -> Seat:
    """A person's seat for "human", else the agent built from ``spec``."""
    if spec.strip().lower() == HUMAN:
        return Seat(HUMAN)
    agent = make_agent(spec, config, seed)
    warm_up(agent)  # compile now, not during its first move's thinking time
    return Seat(spec, agent)


def run_play(arguments: argparse.Namespace) -> int:
    """Open the play window and run it until it is closed."""
    problem = missing_display("gomoku play")
    if problem:
        raise ValueError(problem)
    config = GameConfig(arguments.board_size, arguments.win_length, arguments.rule)
    seed = arguments.seed
    black = make_seat(arguments.black, config, seed)
    white = make_seat(arguments.white, config, None if seed is None else seed + 1)
    delay = arguments.delay
    if delay is None:
        delay = 0.0 if black.is_human or white.is_human else WATCH_DELAY
    if delay < 0 or arguments.fps <= 0:
        raise ValueError(
            f"--delay must be >= 0 and --fps > 0, got {delay} and {arguments.fps}"
        )
    import_pygame()
    from gomoku_apps.gui.play_app import PlayApp

    session = GameSession(config, black, white)
    app = PlayApp(
        session, drawing_options(arguments), arguments.fps, arguments.output, delay
    )
    app.run()
    print(session.status())
    return exit_after_thinking(app.thinker.wait, 0)
