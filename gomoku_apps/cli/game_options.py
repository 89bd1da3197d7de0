"""Command-line options shared by the commands that play games (arena, ladder, rate).

The rules options (``--board-size``, ``--win-length``, ``--rule``) are shared with
``gomoku play`` too, so every verb spells them alike.
"""

from __future__ import annotations

import argparse
from typing import Any

from gomoku_apps.cli.ray_option import add_ray_argument
from gomoku_env.config import MAX_BOARD_SIZE, MIN_BOARD_SIZE, Rule
from gomoku_env.errors import check_number

SPEC_HELP = (
    "agent specs: NAME[:TARGET][:key=value,...], e.g. random, heuristic, "
    "alphabeta:time=0.5, mcts:simulations=1000, python:my_module:make_agent, "
    "engine:/path/to/brain (an unknown name lists the accepted ones)"
)


def positive_int(text: str) -> int:
    """argparse type: an int >= 1."""
    return _checked(text, int, minimum=1)


def positive_float(text: str) -> float:
    """argparse type: a finite float > 0."""
    return _checked(text, float, above=0)


def _checked(text: str, kind: type[int] | type[float], **bounds: float) -> Any:
    """``text`` as ``kind`` within ``bounds`` (:func:`check_number`), or the
    argparse error that names what was expected."""
    word = "an integer" if kind is int else "a number"
    try:
        return check_number("it", kind(text), integer=kind is int, **bounds)
    except (TypeError, ValueError) as error:
        wanted = str(error).removeprefix("it must be ").partition(", got")[0]
        wanted = wanted.replace("an int ", "an integer ")
        raise argparse.ArgumentTypeError(
            f"expected {word if 'must be' not in str(error) else wanted}, got {text!r}"
        ) from None


def rule_argument(text: str) -> Rule:
    """argparse type: the :class:`~gomoku_env.Rule` named by ``text``, parsed once."""
    try:
        return Rule.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_rule_argument(group: argparse._ActionsContainer) -> None:
    """The ``--rule`` option, parsed into a :class:`~gomoku_env.Rule`."""
    group.add_argument(
        "--rule",
        type=rule_argument,
        default=Rule.FREESTYLE,
        metavar="|".join(rule.value for rule in Rule),
        help="how a line wins (default: freestyle)",
    )


def add_rules_arguments(group: argparse._ActionsContainer, board_size: int) -> None:
    """``--board-size`` (old spelling ``--size``), ``--win-length`` and ``--rule``."""
    group.add_argument(
        "--board-size",
        "--size",
        type=int,
        default=board_size,
        metavar="N",
        help=f"board side, {MIN_BOARD_SIZE} to {MAX_BOARD_SIZE}",
    )
    group.add_argument(
        "--win-length", type=int, default=5, metavar="N", help="stones in a row to win"
    )
    add_rule_argument(group)


def add_games_parser(
    subparsers: argparse._SubParsersAction, name: str, summary: str, description: str
) -> argparse.ArgumentParser:
    """A subcommand parser that plays games: the spec help and the game options."""
    parser = subparsers.add_parser(
        name, help=summary, description=description, epilog=SPEC_HELP
    )
    add_game_options(parser)
    return parser


def add_games_argument(
    parser: argparse._ActionsContainer, default: int, per: str, *aliases: str
) -> None:
    """``--games N``: games per match, ``per`` saying which (pair, anchor...)."""
    parser.add_argument(
        "--games",
        *aliases,
        type=positive_int,
        default=default,
        metavar="N",
        help=f"games {per}",
    )


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Rules, openings, seed, parallelism (local or Ray), time limit, records, progress."""
    rules = parser.add_argument_group("game")
    add_rules_arguments(rules, board_size=15)
    rules.add_argument(
        "--openings",
        default="book",
        metavar="book|none|FILE",
        help="built-in opening book for the board size (the default), the empty "
        "board, or a file with one opening per line in notation",
    )
    run = parser.add_argument_group("run")
    run.add_argument(
        "--seed", type=int, default=0, metavar="N", help="seeds openings and agents"
    )
    run.add_argument(
        "--jobs",
        type=positive_int,
        metavar="N",
        help="games at once: local processes, or Ray workers with --ray (unset: 1, "
        "or with --ray one per CPU of the cluster)",
    )
    add_ray_argument(run, "play the games")
    run.add_argument(
        "--move-time",
        type=positive_float,
        metavar="SECONDS",
        help="per-move limit; a slower move forfeits the game",
    )
    run.add_argument(
        "--records", metavar="DIR", help="save every game as a record in DIR"
    )
    run.add_argument(
        "--no-progress", action="store_true", help="no progress bar on stderr"
    )


def arena_from_options(arguments: argparse.Namespace):
    """The :class:`gomoku_apps.arena.Arena` that the parsed game options describe."""
    from gomoku_apps.arena import Arena
    from gomoku_env.config import GameConfig

    config = GameConfig(arguments.board_size, arguments.win_length, arguments.rule)
    jobs = arguments.jobs
    if jobs is None and arguments.ray is None:
        jobs = 1  # Ray's default is one worker per CPU of the cluster
    return Arena(
        config,
        openings=arguments.openings,
        seed=arguments.seed,
        jobs=jobs,
        move_time_limit=arguments.move_time,
        records_dir=arguments.records,
        ray=arguments.ray,
    )


def progress_from_options(arguments: argparse.Namespace, label: str):
    """The progress bar to show, unless ``--no-progress`` was given."""
    from gomoku_apps.cli.progress import ProgressBar

    progress = ProgressBar(label)
    progress.enabled &= not arguments.no_progress
    return progress
