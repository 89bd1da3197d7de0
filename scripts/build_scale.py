"""Build a reference rating scale: a chain of anchors, each pair of neighbours played.

Plays every two neighbouring anchors (given weakest first, ``random`` first) ``--games``
games against each other (or, with ``--target-margin``, fewer once the gap's 95% margin
is that small, after ``--min-games``) in the arena (book openings, colours alternating, seeded),
in chunks whose results are kept in ``--out`` so that a stopped run resumes where it
stopped. Then fits the chain (:mod:`gomoku_apps.arena.chain`) and writes the scale
file ``OUT/NAME.csv``: per anchor its rating against ``random``, the 95% margin of
that rating, the gap to its lower neighbour with its own margin, the games behind it
and its thinking time per move. It also writes ``OUT/NAME-games.csv``: each pair's
first game with its opening and seeds, which the tests replay move for move to pin
every anchor's play (copy it to ``tests/data/scales/``).

    python scripts/build_scale.py --board-size 9 --name 9x9-v1 --games 400 \\
        --jobs 2 --out runs/scale-9x9 random 'mcts:simulations=100' heuristic ...

Anchors must be on work budgets (simulations, nodes): a clock makes a scale depend on
the machine it was played on.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import time
import zlib
from pathlib import Path

from gomoku_apps.arena.chain import PairResult, fit_chain
from gomoku_apps.arena.match import Arena, pair_tasks
from gomoku_apps.arena.reference import SCALE_COLUMNS, check_work_budget
from gomoku_apps.arena.runner import GameResult, GameTask
from gomoku_env.config import GameConfig, Rule
from gomoku_env.files import write_text_atomically

CHUNK = 50
"""Games played between two saves of a pair's results."""
PAIR_COLUMNS = (
    "index",
    "black",
    "white",
    "opening",
    "seeds",
    "winner",
    "reason",
    "moves",
    "seconds",
)


def game_row(result: GameResult, task: GameTask) -> dict[str, object]:
    """One finished game as a row of a pair's file, with what replays it."""
    outcome = result.outcome
    return {
        "index": result.index,
        "black": result.black,
        "white": result.white,
        "opening": " ".join(map(str, task.opening)),
        "seeds": " ".join(map(str, task.seeds)),
        "winner": result.winner or "",
        "reason": outcome.reason,
        "moves": " ".join(map(str, outcome.moves)),
        "seconds": " ".join(
            f"{seconds:.4f}:{count}"
            for seconds, count in zip(outcome.seconds, outcome.move_counts, strict=True)
        ),
    }


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV file this script wrote (none if it is not there yet)."""
    if not path.exists():
        return []
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


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
    rows = read_rows(path)
    if any({row["black"], row["white"]} != {lower, upper} for row in rows):
        raise SystemExit(f"{path} holds games of other anchors than {players}")
    # Seeded by the two anchors, not their places: an anchor put between two others
    # later leaves every other pair's games as they are.
    seed = arena.seed + zlib.crc32(f"{lower}|{upper}".encode())
    pair = ((upper, upper), (lower, lower))
    tasks = pair_tasks(0, pair, games, arena.openings, arena.config, seed)
    while len(rows) < games and not precise(rows, players, target, least):
        chunk = tasks[len(rows) : len(rows) + CHUNK]
        started = time.monotonic()
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
    """Whether the pair's gap is known well enough to stop: at least ``least`` games
    and a 95% margin of at most ``target`` Elo (never without a target)."""
    if target is None or len(rows) < max(least, 1):
        return False
    try:
        return pair_result(rows, *players).gap()[1] <= target
    except ValueError:  # a sweep so far: no finite gap yet
        return False


def pair_result(rows: list[dict], lower: str, upper: str) -> PairResult:
    """``upper``'s wins, draws and losses against ``lower`` in ``rows``."""
    winners = [row["winner"] for row in rows]
    return PairResult(
        lower, upper, winners.count(upper), winners.count(""), winners.count(lower)
    )


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("anchors", nargs="+", help="agent specs, weakest first")
    parser.add_argument("--board-size", type=int, default=9)
    parser.add_argument("--win-length", type=int, default=5)
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument("--name", required=True, help="the scale's version: 9x9-v1")
    parser.add_argument("--games", type=int, default=400, help="games a pair, at most")
    parser.add_argument(
        "--target-margin",
        type=float,
        help="stop a pair early once its gap's 95%% margin is at most this (Elo)",
    )
    parser.add_argument(
        "--min-games",
        type=int,
        default=200,
        help="games a pair, at least, with a target",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    config = GameConfig(args.board_size, args.win_length, Rule(args.rule))
    for spec in args.anchors:
        check_work_budget(spec, config)
    arena = Arena(config, seed=args.seed, jobs=args.jobs)
    args.out.mkdir(parents=True, exist_ok=True)
    pairs, firsts, used = [], [], {}
    for players in zip(args.anchors, args.anchors[1:], strict=False):
        rows = play_pair(
            arena, players, args.games, args.out, args.target_margin, args.min_games
        )
        pairs.append(pair_result(rows, *players))
        firsts.append(rows[0])
        for player, (seconds, moves) in thinking(rows).items():
            total, count = used.get(player, (0.0, 0))
            used[player] = (total + seconds, count + moves)
    scale_rows = [
        {
            "scale": args.name,
            "agent": anchor.spec,
            "rating": f"{anchor.rating:.1f}",
            "margin": f"{anchor.margin:.1f}",
            "gap": f"{anchor.gap:.1f}",
            "gap_margin": f"{anchor.gap_margin:.1f}",
            "games": anchor.games,
            "ms_per_move": f"{1000 * used[anchor.spec][0] / used[anchor.spec][1]:.2f}",
        }
        for anchor in fit_chain(pairs)
    ]
    write_rows(args.out / f"{args.name}.csv", scale_rows, SCALE_COLUMNS)
    write_rows(args.out / f"{args.name}-games.csv", firsts, PAIR_COLUMNS)
    for row in scale_rows:
        print(", ".join(f"{key}={value}" for key, value in row.items()))


if __name__ == "__main__":
    main()
