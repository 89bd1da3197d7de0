"""Build a reference rating scale: anchors that play their neighbours, fitted jointly.

Plays every two anchors up to ``--span`` steps apart in the given order (weakest and
``random`` first) ``--games`` games (fewer with ``--target-margin`` once the pair's gap
is known to it, after ``--min-games``) in the arena (book openings, seeded), in chunks
kept in ``--out`` so that a stopped run resumes; a pair further apart whose games are
stored there joins the fit too. Then fits all games at once (the ladder's
:func:`~gomoku_apps.arena.bradley_terry.fit_ratings`, the first anchor at 0) and writes
``OUT/NAME.csv`` weakest first (rating, margin, gap to the next weaker anchor, the games
of that pair, thinking time, both margins with each distinct game counted once),
``OUT/NAME-residuals.csv`` and ``.png`` (observed against predicted score per pair) and
``OUT/NAME-games.csv`` (each pair's first game, which the tests replay). Anchors must
be on work budgets: a clock makes a scale machine-bound.

A resume reads only its own run's files (``OUT/build.json`` records rules, openings and
seed; other options are refused naming them), every row of a pair file must be this
run's game of its index, and ``--games`` is at most 100,000.
"""

from __future__ import annotations

import argparse
import collections
import csv
import io
import itertools
import json
import re
import time
import zlib
from pathlib import Path

import numpy as np

from agents.scales.reference import SCALE_COLUMNS
from agents.scales.stats import ELO_PER_NATURAL_UNIT, score_moments, z_value
from gomoku_apps.arena.bradley_terry import fit_ratings, pair_residuals
from gomoku_apps.arena.ladder import check_work_budget
from gomoku_apps.arena.ladder_report import write_residuals
from gomoku_apps.arena.match import MAX_GAMES, Arena, pair_task
from gomoku_apps.arena.runner import GameResult, GameTask
from gomoku_apps.cli.options import games_count, positive_float, positive_int
from gomoku_env.config import GameConfig, Rule
from gomoku_env.files import read_text_file, write_text_atomically

CHUNK = 50
"""Games played between two saves of a pair's results."""
PAIR_COLUMNS = ("index", "black", "white", "opening", "seeds",
                "winner", "reason", "moves", "seconds")  # fmt: skip


def game_row(result: GameResult, task: GameTask) -> dict[str, object]:
    """One finished game as a row of a pair's file, with what replays it."""
    outcome = result.outcome
    return {
        **game_row_start(task),
        "winner": result.winner or "",
        "reason": outcome.reason,
        "moves": " ".join(map(str, outcome.moves)),
        "seconds": " ".join(
            f"{seconds:.4f}:{count}"
            for seconds, count in zip(outcome.seconds, outcome.move_counts, strict=True)
        ),
    }


MANIFEST = "build.json"
"""The file in ``--out`` that names the run its games belong to."""
MANIFEST_FORMAT = 1
PAIR_FILE_LIMIT = 64 * 1024 * 1024
"""A pair file's size at most: 100,000 games of long move lists."""


def run_manifest(config: GameConfig, seed: int, openings: str) -> dict[str, object]:
    """What decides a build's games, as its ``build.json`` records it."""
    return {
        "format": MANIFEST_FORMAT,
        "board_size": config.board_size,
        "win_length": config.win_length,
        "rule": config.rule.value,
        "openings": openings,
        "seed": seed,
    }


OPTIONS = {"board_size": "--board-size", "win_length": "--win-length",
           "rule": "--rule", "seed": "--seed"}  # fmt: skip


def claim_out(out: Path, manifest: dict[str, object]) -> None:
    """Check that ``out`` is this run's folder (or a new one, then claim it)."""
    path = out / MANIFEST
    if not path.exists():
        if any(out.glob("pair--*.csv")):
            raise SystemExit(
                f"{out} holds pair files but no {MANIFEST}: they may be another "
                "run's games; use another --out"
            )
        write_text_atomically(path, json.dumps(manifest, indent=1) + "\n")
        return
    try:
        found = json.loads(read_text_file(path, "a scale build's manifest"))
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise SystemExit(f"{path}: not a build manifest ({error})") from None
    if not isinstance(found, dict) or set(found) != set(manifest):
        raise SystemExit(f"{path}: not a build manifest of this script's format")
    for key, value in manifest.items():
        if found[key] != value:
            option = OPTIONS.get(key, key)
            raise SystemExit(
                f"{path}: this folder's games were played with {option} "
                f"{found[key]!r}, not {value!r}; use that or another --out"
            )


def read_rows(path: Path, expected: PairGames) -> list[dict[str, str]]:
    """The rows of a pair file this script wrote (none if it is not there yet),
    each checked to be this run's game of its index."""
    if not path.exists():
        return []
    text = read_text_file(path, "a pair's games", SystemExit, PAIR_FILE_LIMIT)
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != PAIR_COLUMNS:
        raise SystemExit(f"{path}, line 1: not the columns {','.join(PAIR_COLUMNS)}")
    rows = []
    for row in reader:
        if len(rows) >= MAX_GAMES:
            raise SystemExit(f"{path}: more than {MAX_GAMES:,} games")
        problem = expected.problem(len(rows), row)
        if problem:
            raise SystemExit(f"{path}, line {reader.line_num}: {problem}")
        rows.append(row)
    return rows


class PairGames:
    """The games of one pair in this run, built one at a time, by index."""

    def __init__(self, arena: Arena, players: tuple[str, str]) -> None:
        lower, upper = players
        # Seeded by the two anchors, not their places: an anchor put between two
        # others later leaves every other pair's games as they are.
        self.seed = arena.seed + zlib.crc32(f"{lower}|{upper}".encode())
        self.players = ((upper, upper), (lower, lower))
        self.arena = arena

    def task(self, k: int) -> GameTask:
        """The pair's game ``k``."""
        arena = self.arena
        return pair_task(k, self.players, arena.openings, arena.config, self.seed)

    def problem(self, k: int, row: dict[str | None, str | None]) -> str | None:
        """What is wrong with ``row`` as the pair's game ``k``, or None."""
        if None in row or None in row.values():
            return "a row cut short or with extra fields"
        task = self.task(k)
        wanted = game_row_start(task)
        for column, value in wanted.items():
            if row[column] != value:
                return (
                    f"{column} {row[column][:80]!r} is not this run's game {k} "
                    f"({value!r}): another run's games?"
                )
        if row["winner"] not in ("", task.black, task.white):
            return f"winner {row['winner'][:80]!r} is neither player"
        cells = task.config.board_size**2
        moves = row["moves"].split()
        if not all(m.isascii() and m.isdigit() and int(m) < cells for m in moves):
            return f"moves {row['moves'][:80]!r} are not points of the board"
        if not all(SECONDS.fullmatch(side) for side in row["seconds"].split()) or (
            len(row["seconds"].split()) != 2
        ):
            return f"seconds {row['seconds'][:80]!r} are not two SECONDS:MOVES"
        return None


SECONDS = re.compile(r"\d{1,9}\.\d{4}:\d{1,6}")
"""A side's thinking in a pair file: seconds (4 decimals) and moves."""


def game_row_start(task: GameTask) -> dict[str, str]:
    """The columns of a game's row that its task decides before it is played."""
    return {
        "index": str(task.index),
        "black": task.black,
        "white": task.white,
        "opening": " ".join(map(str, task.opening)),
        "seeds": " ".join(map(str, task.seeds)),
    }


def write_rows(path: Path, rows: list[dict], columns: tuple[str, ...]) -> None:
    """Write ``rows`` as CSV to ``path`` at once (a temporary file renamed)."""
    text = io.StringIO()
    writer = csv.DictWriter(text, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_text_atomically(path, text.getvalue())


def pair_file_name(lower: str, upper: str) -> str:
    """The file of a pair's games, named by its two anchors."""
    return (
        "pair--"
        + "--".join(re.sub(r"[^A-Za-z0-9.]+", "-", s) for s in (lower, upper))
        + ".csv"
    )


def scale_pairs(names: list[str], span: int, out: Path) -> list[tuple[int, int]]:
    """The fit's pairs as indices (weaker first): those up to ``span`` steps apart,
    nearest first, then any further apart whose games are stored in ``out``."""
    near = [
        (low, low + step)
        for step in range(1, span + 1)
        for low in range(len(names) - step)
    ]
    stored = [
        (low, high)
        for low, high in itertools.combinations(range(len(names)), 2)
        if high - low > span
        and (out / pair_file_name(names[low], names[high])).is_file()
    ]
    return near + stored


def play_pair(
    arena: Arena,
    players: tuple[str, str],
    games: int,
    out: Path,
    target: float | None = None,
    least: int = 0,
) -> list[dict]:
    """The games of the pair (lower, upper), playing those not yet in its file a chunk
    at a time: ``games`` of them, or fewer once at least ``least`` are played and the
    gap's 95% margin is at most ``target`` (pairs that draw often get there sooner)."""
    lower, upper = players
    path = out / pair_file_name(lower, upper)
    pair = PairGames(arena, players)
    rows = read_rows(path, pair)
    while len(rows) < games and not precise(rows, players, target, least):
        chunk = [pair.task(k) for k in range(len(rows), min(games, len(rows) + CHUNK))]
        started = time.monotonic()
        tasks = {task.index: task for task in chunk}
        rows += [game_row(result, tasks[result.index]) for result in arena.play(chunk)]
        write_rows(path, rows, PAIR_COLUMNS)
        print(
            f"{upper} vs {lower}: {len(rows)}/{games} games "
            f"({time.monotonic() - started:.0f} s for {len(chunk)})",
            flush=True,
        )
    return rows


def precise(
    rows: list[dict], players: tuple[str, str], target: float | None, least: int
) -> bool:
    """Whether the pair's own gap is known well enough to stop: at least ``least``
    games and a 95% margin of at most ``target`` Elo (never without a target, nor
    while one side has won every game). The margin is the delta method on the pair's
    score, draws counted as the trinomial results they are."""
    if target is None or len(rows) < max(least, 1):
        return False
    score, variance = score_moments(*results(rows, *players))
    if score in (0.0, 1.0):
        return False
    slope = ELO_PER_NATURAL_UNIT / (score * (1 - score))
    return z_value(0.95) * slope * np.sqrt(variance / len(rows)) <= target


def results(rows: list[dict], lower: str, upper: str) -> tuple[int, int, int]:
    """``upper``'s wins, draws and losses against ``lower`` in ``rows``."""
    winners = [row["winner"] for row in rows]
    return winners.count(upper), winners.count(""), winners.count(lower)


def replays(rows: list[dict]) -> list[int]:
    """How many times each distinct game of ``rows`` was played (same colours, same
    moves): the residuals count a replayed game once."""
    return list(collections.Counter((r["black"], r["moves"]) for r in rows).values())


def thinking(rows: list[dict]) -> dict[str, tuple[float, int]]:
    """Seconds and moves each player of ``rows`` used (its opening stones aside)."""
    used: dict[str, tuple[float, int]] = {}
    for row in rows:
        sides = row["seconds"].split()
        for player, side in zip((row["black"], row["white"]), sides, strict=True):
            seconds, count = side.split(":")
            total, moves = used.get(player, (0.0, 0))
            used[player] = (total + float(seconds), moves + int(count))
    return used


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The options, each checked: numbers in range, two anchors or more."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("anchors", nargs="+", help="agent specs, weakest first")
    parser.add_argument("--board-size", type=int, default=9)
    parser.add_argument("--win-length", type=int, default=5)
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument("--name", required=True, help="the scale's version: 9x9-v1")
    parser.add_argument(
        "--games", type=games_count, default=400, help="games a pair, at most"
    )
    parser.add_argument(
        "--target-margin",
        type=positive_float,
        help="stop a pair early once its gap's 95%% margin is at most this (Elo)",
    )
    parser.add_argument(
        "--min-games",
        type=games_count,
        default=200,
        help="games a pair, at least, with a target",
    )
    parser.add_argument(
        "--span",
        type=positive_int,
        default=1,
        help="play the anchors up to this many steps apart (1: neighbours only)",
    )
    parser.add_argument("--jobs", type=positive_int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if len(args.anchors) < 2:
        parser.error(f"a scale needs two anchors or more, got {args.anchors}")
    if len(set(args.anchors)) < len(args.anchors):
        parser.error(f"an anchor is given twice: {args.anchors}")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", args.name):
        parser.error(f"--name must be a file name such as 9x9-v1, got {args.name!r}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_arguments(argv)
    try:
        config = GameConfig(args.board_size, args.win_length, Rule(args.rule))
        for spec in args.anchors:
            check_work_budget(spec, config)
        arena = Arena(config, seed=args.seed, jobs=args.jobs)
    except ValueError as error:
        raise SystemExit(f"build_scale.py: error: {error}") from None
    args.out.mkdir(parents=True, exist_ok=True)
    claim_out(args.out, run_manifest(config, args.seed, "book"))
    names, played, repeats = args.anchors, [], {}
    wins, draws = np.zeros((len(names), len(names))), np.zeros((len(names), len(names)))
    for low, high in scale_pairs(names, args.span, args.out):
        players = names[low], names[high]
        games = args.games if high - low <= args.span else 0  # stored: read, not played
        rows = play_pair(
            arena, players, games, args.out, args.target_margin, args.min_games
        )
        wins[high, low], draws[low, high], wins[low, high] = results(rows, *players)
        draws[high, low] = draws[low, high]
        played.append(rows)
        repeats[low, high] = replays(rows)
    used = thinking([row for rows in played for row in rows])
    ms_per_move = {
        spec: 1000 * seconds / moves for spec, (seconds, moves) in used.items()
    }
    fit = fit_ratings(names, wins, draws, names[0])
    once = fit_ratings(names, wins, draws, names[0], repeats=repeats)
    order = sorted(range(len(names)), key=lambda k: (fit.ratings[k], k))
    scale_rows = [
        {
            "scale": args.name,
            "agent": names[index],
            "rating": f"{fit.ratings[index]:.1f}",
            "margin": f"{fit.margins[index]:.1f}",
            # The gap from the next weaker anchor, the games the two played (0 for
            # the weakest, or unmet), then both margins counting distinct games once.
            "gap": f"{fit.gap(names[index], names[below])[0]:.1f}",
            "gap_margin": f"{fit.gap(names[index], names[below])[1]:.1f}",
            "games": int(wins[index, below] + wins[below, index] + draws[index, below]),
            "ms_per_move": f"{ms_per_move[names[index]]:.2f}",
            "clustered_margin": f"{once.margins[index]:.1f}",
            "clustered_gap_margin": f"{once.gap(names[index], names[below])[1]:.1f}",
        }
        for index, below in zip(order, [order[0], *order[:-1]], strict=True)
    ]
    residuals = pair_residuals(fit, wins, draws, repeats)
    write_rows(args.out / f"{args.name}.csv", scale_rows, SCALE_COLUMNS)
    write_rows(
        args.out / f"{args.name}-games.csv", [r[0] for r in played], PAIR_COLUMNS
    )
    title = f"{args.name}: {len(residuals)} pairs, {sum(map(len, played)):,} games"
    write_residuals(residuals, args.out / f"{args.name}-residuals", title)
    for row in scale_rows:
        print(", ".join(f"{key}={value}" for key, value in row.items()))
    print(
        f"{sum(r.outside for r in residuals)} of {len(residuals)} pairs outside their "
        f"95% interval (chance: about {0.05 * len(residuals):.1f})"
    )


if __name__ == "__main__":
    main()
