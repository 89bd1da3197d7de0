"""Command-line options that several verbs share, so every verb spells them alike.

- the rules (``--board-size``, ``--win-length``, ``--rule``): every verb that plays,
  ``gomoku train`` included, one flag per :class:`~gomoku_env.GameConfig` field;
- the games options of arena, ladder and rate (openings, seed, jobs, move time, records,
  progress), with the progress bar they draw;
- ``--ray``: games or self-play on a Ray cluster (ray is imported only when asked for);
- the drawing options of play, replay and gif (cell size, move numbers, coordinates);
- ending a command while an agent may still be thinking in a background thread: a
  thread left inside native code (a torch search) at interpreter shutdown makes the
  process abort, so ``brain`` and ``play`` wait a moment for an abandoned search and
  then end the process at once, without the interpreter's teardown.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from gomoku_env.config import GameConfig, Rule
from gomoku_env.errors import install_hint
from gomoku_env.fields import check_number
from gomoku_env.render.geometry import MAX_CELL_PIXELS, MIN_CELL_PIXELS
from gomoku_env.render.style import RenderOptions

SPEC_HELP = (
    "agent specs: NAME[:key=value,...], or NAME:TARGET[,key=value,...] for python "
    "and engine, e.g. random, heuristic, alphabeta:time=0.5, mcts:simulations=1000, "
    "python:my_module:make_agent,depth=3, engine:/path/to/brain ('gomoku agents' "
    "lists every name and option)"
)


def positive_int(text: str) -> int:
    """argparse type: an int >= 1."""
    return _checked(text, int, minimum=1)


def games_count(text: str) -> int:
    """argparse type: a number of games, 1 to the arena's MAX_GAMES."""
    from gomoku_apps.arena.match import MAX_GAMES

    return _checked(text, int, minimum=1, maximum=MAX_GAMES)


def move_seconds(text: str) -> float:
    """argparse type: a per-move limit in seconds, > 0 and at most MAX_MOVE_TIME."""
    from gomoku_apps.arena.match import MAX_MOVE_TIME

    return _checked(text, float, above=0, maximum=MAX_MOVE_TIME)


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


OLD_SPELLINGS = {"board_size": ("--size",)}
"""Earlier spellings of game flags that still work, by :class:`GameConfig` field."""


def add_rules_arguments(group: argparse._ActionsContainer, board_size: int) -> None:
    """One flag per :class:`GameConfig` field, ``--board-size`` (old spelling
    ``--size``), ``--win-length`` and ``--rule``, its help the field's ``help``
    metadata and its default the field's, but for ``board_size``: the command's."""
    defaults = GameConfig(board_size)
    for item in dataclasses.fields(GameConfig):
        default = getattr(defaults, item.name)
        options: dict[str, Any] = {"type": int, "metavar": "N"}
        help_text = item.metadata["help"]
        if isinstance(default, Rule):
            options = {
                "type": rule_argument,
                "metavar": "|".join(rule.value for rule in Rule),
            }
            help_text += f" (default: {default.value})"  # its name, not Rule.X
        group.add_argument(
            "--" + item.name.replace("_", "-"),
            *OLD_SPELLINGS.get(item.name, ()),
            default=default,
            help=help_text,
            **options,
        )


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
        type=games_count,
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
        "--seed", type=int, default=0, metavar="N", help="seeds the openings and agents"
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
        type=move_seconds,
        metavar="SECONDS",
        help="per-move limit; a slower move forfeits the game",
    )
    run.add_argument(
        "--records", metavar="DIR", help="save every game as a record in DIR"
    )
    run.add_argument(
        "--force",
        action="store_true",
        help="let --records write into a folder that is not empty, replacing its "
        "game-NNNNN.txt files, and rate's --card replace its file (without it both "
        "are refused)",
    )
    run.add_argument(
        "--no-progress", action="store_true", help="no progress bar on stderr"
    )


def arena_from_options(arguments: argparse.Namespace, resume: bool = False):
    """The :class:`gomoku_apps.arena.Arena` that the parsed game options describe;
    ``resume`` lets its records folder hold the games of the run it goes on with."""
    from gomoku_apps.arena import Arena

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
        overwrite_records=arguments.force or resume,
    )


def progress_from_options(arguments: argparse.Namespace, label: str):
    """The progress bar to show, unless ``--no-progress`` was given."""
    progress = ProgressBar(label)
    progress.enabled &= not arguments.no_progress
    return progress


_WIDTH = 30


class ProgressBar:
    """Redraws ``[#####.....] done/total games, elapsed, remaining`` in place.

    Draws only on a terminal (or when ``force``), so logs and pipes stay clean; there
    it says once, from the first games, how long the rest will take, so that a long
    run (the default 200 games) is never silent.
    """

    def __init__(
        self, label: str, stream: TextIO | None = None, force: bool = False
    ) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = force or self.stream.isatty()
        self.start = time.monotonic()
        self.estimated = False

    def __call__(self, result: object, done: int, total: int) -> None:
        """The arena's ``on_result`` callback."""
        if total == 0 or done == 0:
            return
        elapsed = time.monotonic() - self.start
        remaining = elapsed / done * (total - done)
        if not self.enabled:
            self._estimate_once(done, total, remaining)
            return
        filled = round(_WIDTH * done / total)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (_WIDTH - filled)}] "
            f"{done}/{total} games, {elapsed:.0f}s elapsed, ~{remaining:.0f}s left "
        )
        self.stream.flush()

    def _estimate_once(self, done: int, total: int, remaining: float) -> None:
        """One line, after the first games (a twentieth of them, at least two), with
        the time the rest should take."""
        if self.estimated or done < max(2, total // 20) or done == total:
            return
        self.estimated = True
        self.stream.write(
            f"{self.label}: {done}/{total} games played, about {remaining / 60:.0f} "
            f"min left at this pace (--games sets how many)\n"
        )
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


# Ray's own names (see agents.executors.ray_cluster), spelt out here so that building
# the parser imports no agents.
LOCAL_CLUSTER = "local"
INSTALL_HINT = install_hint("ray")


def ray_address(text: str) -> str:
    """argparse type: a Ray address, so that ``--ray A B`` does not take agent A for one."""
    if text in (LOCAL_CLUSTER, "auto") or ":" in text:
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r} is not a Ray address (HOST:PORT, ray://HOST:PORT, auto or "
        f"{LOCAL_CLUSTER}); give --ray after the agents, or as --ray=ADDRESS"
    )


def add_ray_argument(group: argparse._ActionsContainer, what: str) -> None:
    """Add ``--ray [ADDRESS]``; ``what`` says what runs on the Ray workers."""
    group.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_CLUSTER,
        type=ray_address,
        metavar="ADDRESS",
        help=f"{what} on Ray workers, one per CPU of the cluster: alone, on a Ray "
        "started here; ADDRESS (HOST:PORT, ray://HOST:PORT or auto) joins that "
        f"cluster. Needs the ray extra: {INSTALL_HINT}",
    )


@contextmanager
def self_play_workers(address: str | None) -> Iterator[Any]:
    """Training's self-play workers on the Ray at ``address``; None without ``--ray``.

    The workers (one per CPU of the cluster) live as long as the ``with`` block, so
    they keep their copy of the network between iterations.
    """
    if address is None:
        yield None
        return
    from agents.alphazero.selfplay_workers import ExecutorSelfPlay
    from agents.executors import open_executor

    with open_executor(None, address) as executor:
        print(f"self-play on {executor.workers} Ray workers")
        yield ExecutorSelfPlay(executor)


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


QUIT_GRACE_S = 2.0
"""Seconds to wait for a thinking agent before ending the process under it."""


def exit_after_thinking(wait: Callable[[float], bool], code: int) -> int:
    """``code`` once ``wait(QUIT_GRACE_S)`` says no agent thinks; else exit now.

    ``wait(timeout)`` waits up to ``timeout`` seconds and says whether the thinking
    thread has ended.
    """
    if not wait(QUIT_GRACE_S):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
