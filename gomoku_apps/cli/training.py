"""What the routes of ``gomoku train`` share: run options, flag groups, progress, the
closing lines.

A training flag is a field of a route's config dataclass, declared once with its
default, range and help (the flag's help); ``option(..., flag=GROUP)`` puts it
in the help's GROUP (:func:`add_groups`), so no command lists flags by name.
"""

from __future__ import annotations

import argparse
import copy
import os
import shlex
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: runs are not locked there
    fcntl = None

from agents.specs.flags import add_flags
from gomoku_env.fields import option

BEFORE_AFTER_GAMES = 8
"""Games of the closing before/after match (colours alternate)."""


@dataclass(frozen=True)
class RunOptions:
    """The options of a training command that are not training settings."""

    out: str = option(
        "runs/{route}-{size}x{size}",
        help=(
            "folder of the run ({route}, {size}: the route and the board side); run "
            "the same command again to resume it"
        ),
        flag="run",
        aliases=("-o", "--output"),
    )
    export: str | None = option(
        None, help="also write the trained network to this file at the end", flag="run"
    )
    progress: bool = option(
        True,
        help="a progress bar (--no-progress: one line per report instead)",
        flag="run",
    )
    force: bool = option(
        False,
        help=(
            "let this run take over a folder that holds files but no run of this "
            "route (without it such a folder is refused, its files kept)"
        ),
        flag="run",
    )

    def folder(self, route: str, size: int) -> str:
        """``out`` with ``{route}`` and ``{size}`` replaced (plain text replacement:
        any other brace in a folder name stays as written)."""
        return self.out.replace("{route}", route).replace("{size}", str(size))


RUN_MARKERS = {
    "alphazero": ("manifest.json", "latest.pt"),
    "ppo": ("checkpoint.pt",),
}
"""Files that say a folder holds a run of the route (and so may be resumed)."""
FIRST_ITERATION_FILES = {"alphazero": {"best.pt"}, "ppo": set()}
"""What a run killed in its first iteration leaves: a folder holding these files and
nothing else is that run, resumed (the trainer checks an AlphaZero ``best.pt`` to be
of the run's game before it reads it); beside other files they mark no run, so the
other files are never deleted as a run's leftovers."""
LOCK_FILE = ".gomoku-train.lock"


@contextmanager
def claimed_run_folder(out: Path, route: str, force: bool) -> Iterator[None]:
    """Hold ``out`` for this run: create it, take its lock (a second ``gomoku train``
    on the folder is refused while this one runs: two runs on one folder deleted each
    other's files), and refuse a folder that holds files but no run of ``route``
    (they are someone else's: a run would delete or overwrite them) unless
    ``force``."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"{str(out)!r} is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    with _lock_file(out / LOCK_FILE) as lock:
        try:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ValueError(
                f"another gomoku train is running in {str(out)!r}; wait for it or "
                "give another --out"
            ) from None
        others = sorted(
            entry.name for entry in out.iterdir() if entry.name != LOCK_FILE
        )
        ours = any((out / marker).exists() for marker in RUN_MARKERS[route]) or (
            bool(others) and set(others) <= FIRST_ITERATION_FILES[route]
        )
        if others and not ours and not force:
            shown = ", ".join(others[:5]) + (" ..." if len(others) > 5 else "")
            raise ValueError(
                f"{str(out)!r} holds files but no {route} run ({shown}); a run would "
                "delete or overwrite them: give a new --out, or --force to let this "
                "run take the folder over"
            )
        yield


def _lock_file(path: Path) -> Any:
    """The run's lock file, opened without following a link or waiting on a FIFO
    that someone put in its place; anything but a regular file is refused."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o600)
    except OSError as error:
        raise ValueError(f"{str(path)!r} cannot be the run's lock: {error}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise ValueError(f"{str(path)!r} cannot be the run's lock: not a regular file")
    return os.fdopen(descriptor, "a")


def add_route_parser(
    routes: argparse._SubParsersAction,
    name: str,
    summary: str,
    description: str,
    titles: dict[str, str],
    sources: Iterable[tuple[type, str, Any]],
) -> tuple[argparse.ArgumentParser, dict[str, argparse._ArgumentGroup]]:
    """The parser of one route of ``gomoku train``, its flags in groups
    (:func:`add_groups`)."""
    parser = routes.add_parser(name, help=summary, description=description)
    return parser, add_groups(parser, titles, sources)


def add_groups(
    parser: argparse.ArgumentParser,
    titles: dict[str, str],
    owners: Iterable[tuple[type, str, Any]],
) -> dict[str, argparse._ArgumentGroup]:
    """One help group per ``titles`` entry (flag group: title), holding the flags of
    every ``(owner, prefix, defaults)`` field declared in that group."""
    owners = list(owners)
    groups = {}
    for name, title in titles.items():
        groups[name] = parser.add_argument_group(title)
        for owner, prefix, defaults in owners:
            add_flags(groups[name], owner, group=name, prefix=prefix, defaults=defaults)
    return groups


class TrainingProgress:
    """A tqdm bar over the run's budget, or plain lines when tqdm is off or missing;
    notes are printed as lines under it."""

    def __init__(self, total: float, done: float, unit: str, enabled: bool) -> None:
        try:
            from tqdm import tqdm
        except ImportError:  # the `train` extra is not installed: print lines instead
            tqdm = None
        self._bar = None
        if tqdm is not None and enabled:
            self._bar = tqdm(total=round(total), initial=round(done), unit=unit)

    def __enter__(self) -> TrainingProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._bar is not None:
            self._bar.close()

    def report(
        self, label: str, done: float, figures: dict[str, Any], note: str | None
    ) -> None:
        """Show ``figures`` at ``done`` of the budget; print ``note`` as a line."""
        shown = {
            name: f"{value:.3f}" if isinstance(value, float) else value
            for name, value in figures.items()
        }
        if self._bar is None:
            print(f"{label}: {shown}", flush=True)
        else:
            self._bar.update(round(done) - self._bar.n)
            self._bar.set_postfix(shown)
        if note:
            line = f"{label}: {note}"
            print(line, flush=True) if self._bar is None else self._bar.write(line)


def before_and_after(trained: Any, start: Any, game: Any, how: str) -> str:
    """A line saying how the trained agent scores against the one this invocation
    started from (``how`` says how they play): whether it learned, beyond the loss."""
    from agents.training.head_to_head import play_match

    score = play_match(trained, start, game, BEFORE_AFTER_GAMES, seed=0)
    return (
        f"before/after: the trained network scored {score.score:.2f} "
        f"({score.wins} won, {score.draws} drawn, {score.losses} lost) against the "
        f"network this run started from, {BEFORE_AFTER_GAMES} games, {how} (0.5 "
        "would mean no change)"
    )


def where_to_play(result: Any, spec: str, game: Any) -> str:
    """The closing line: the trained network's file, and commands that play and rate
    it under the rules of ``game`` (a :class:`gomoku_env.GameConfig`), which it was
    trained for; where no reference scale has those rules, how to make a ladder."""
    from agents.scales.reference import REFERENCE_SCALES

    agent = shlex.quote(f"{spec}:weights={result}")
    rules = f"--board-size {game.board_size} --win-length {game.win_length}"
    if game.rule.value != "freestyle":
        rules += f" --rule {game.rule.value}"
    scales = [name for name, config in REFERENCE_SCALES.items() if config == game]
    if scales:
        rate = f"rate it: gomoku rate {agent} {rules} --margin 50"
    else:
        rate = (
            "no reference scale has these rules, so rate it on a ladder of your own: "
            f"gomoku ladder random heuristic {agent} {rules} --output mine"
        )
    return f"the trained network: {result} (play it: gomoku play --white {agent} {rules}; {rate})"


def cpu_copy(network: Any) -> Any:
    """A copy of ``network`` on the CPU for evaluation, the original left training."""
    return copy.deepcopy(network).cpu().eval()
