"""Build the arena's built-in opening book (gomoku_apps/arena/builtin_openings.py).

For each board size, every one of the 26 classic three-stone openings
(gomoku_apps.arena.openings.candidate_openings) is played ``--games`` times in self-play by
``--agent``; an opening stays in the book when black's score lies inside ``--band``,
so neither side wins it too easily, or when it is among the ``--minimum`` openings
closest to ½ (every opening is played with both colours, so the book needs variety
more than perfect balance). Run from the repository root:

    .venv/bin/python scripts/build_opening_book.py --agent heuristic --games 100 --jobs 2
    .venv/bin/ruff format gomoku_apps/arena/builtin_openings.py

The stronger and faster the agent, the better the filter (``random`` keeps almost
everything; ``heuristic`` separates decisive openings from balanced ones).
"""

from __future__ import annotations

import argparse
import json
import textwrap
from dataclasses import dataclass
from pathlib import Path

from agents.specs.parse import make_agent
from gomoku_apps.arena.match import pair_tasks
from gomoku_apps.arena.openings import Opening, candidate_openings, describe
from gomoku_apps.arena.runner import run_tasks
from gomoku_env.config import GameConfig
from gomoku_env.files import write_text_atomically

BOOK_MODULE = (
    Path(__file__).resolve().parents[1]
    / "gomoku_apps"
    / "arena"
    / "builtin_openings.py"
)


@dataclass(frozen=True)
class Arguments:
    """Command-line arguments."""

    agent: str
    """Agent spec that plays both sides."""
    games: int
    """Self-play games per opening."""
    band: tuple[float, float]
    """An opening stays when black's score lies in [low, high]…"""
    minimum: int
    """…or when it is among the ``minimum`` openings closest to a score of ½."""
    sizes: tuple[int, ...]
    """Board sizes that get a book."""
    jobs: int
    """Parallel processes."""
    seed: int
    """Seeds the self-play games."""


def parse_arguments() -> Arguments:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--band", type=float, nargs=2, default=(0.35, 0.65))
    parser.add_argument("--minimum", type=int, default=12)
    parser.add_argument("--sizes", type=int, nargs="+", default=(9, 13, 15, 19))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    values = parser.parse_args()
    return Arguments(
        values.agent,
        values.games,
        tuple(values.band),
        values.minimum,
        tuple(values.sizes),
        values.jobs,
        values.seed,
    )


def black_scores(arguments: Arguments, config: GameConfig) -> dict[Opening, float]:
    """Black's self-play score from each candidate opening."""
    make_agent(arguments.agent, config)
    players = (("black", arguments.agent), ("white", arguments.agent))
    tasks = []
    openings = candidate_openings(config.board_size)
    for opening in openings:
        tasks += pair_tasks(
            len(tasks), players, arguments.games, [opening], config, arguments.seed
        )
    results = run_tasks(tasks, arguments.jobs)
    scores = {}
    for number, opening in enumerate(openings):
        games = results[number * arguments.games : (number + 1) * arguments.games]
        points = sum(
            1.0 if g.outcome.winner == "black" else 0.5 * (g.outcome.winner is None)
            for g in games
        )
        scores[opening] = points / len(games)
    return scores


def select(scores: dict[Opening, float], arguments: Arguments) -> dict[Opening, float]:
    """The openings in the band, topped up to the minimum with the most balanced."""
    low, high = arguments.band
    balanced = sorted(scores, key=lambda opening: abs(scores[opening] - 0.5))
    kept = {o for o, score in scores.items() if low <= score <= high}
    kept.update(balanced[: arguments.minimum])
    return {o: score for o, score in scores.items() if o in kept}


def book_module_text(method: str, book: dict[int, dict[str, float]]) -> str:
    """The source of gomoku_apps/arena/builtin_openings.py (run ruff format on it after)."""
    lines = [
        '"""The built-in opening book, written by scripts/build_opening_book.py.',
        "",
        "For each board size: opening -> black's score in the self-play check.",
        '"""',
        "",
        "BOOK_METHOD = (",
        *(
            f"    {json.dumps(chunk)}"
            for chunk in textwrap.wrap(method, 70, drop_whitespace=False)
        ),
        ")",
        "BUILTIN_BOOK: dict[int, dict[str, float]] = {",
    ]
    for size, openings in book.items():
        lines += [
            f"    {size}: {{",
            *(f"        {json.dumps(o)}: {s:.3f}," for o, s in openings.items()),
            "    },",
        ]
    return "\n".join([*lines, "}", ""])


def main() -> None:
    arguments = parse_arguments()
    book: dict[int, dict[str, float]] = {}
    for size in arguments.sizes:
        scores = black_scores(arguments, GameConfig(board_size=size))
        kept = select(scores, arguments)
        book[size] = {describe(o, size): score for o, score in kept.items()}
        print(
            f"{size}x{size}: kept {len(kept)} of {len(scores)}; black scores "
            f"{min(scores.values()):.2f} … {max(scores.values()):.2f}, kept "
            f"{min(kept.values()):.2f} … {max(kept.values()):.2f}"
        )
    low, high = arguments.band
    method = (
        f"the 26 classic three-stone openings, each played {arguments.games} times in "
        f"self-play by {arguments.agent!r} (seed {arguments.seed}); kept when black's "
        f"score is within [{low}, {high}] or among the {arguments.minimum} closest "
        "to 0.5"
    )
    write_text_atomically(BOOK_MODULE, book_module_text(method, book))
    print(f"wrote {BOOK_MODULE}")


if __name__ == "__main__":
    main()
