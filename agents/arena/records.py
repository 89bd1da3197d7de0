"""Game records of arena games: one small text file per game, in standard notation.

The format follows PGN's tag pairs: ``[Key "value"]`` lines, a blank line, then the
moves in notation separated by spaces (the opening included; the ``Opening`` tag says
how many moves it has)::

    [Game "12"]
    [Board "15"]
    [WinLength "5"]
    [Rule "freestyle"]
    [Black "mcts:simulations=200"]
    [White "random"]
    [Opening "h8 h9 j10"]
    [Result "1-0"]
    [Reason "five"]

    h8 h9 j10 g9 ...

``Result`` is ``1-0`` (black won), ``0-1`` or ``1/2-1/2``; a forfeited game adds
``[Forfeit "white"]`` and ``[ForfeitDetail "..."]``. Files are written atomically.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from agents.arena.openings import describe
from agents.arena.runner import GameResult
from gomoku_env.config import GameConfig
from gomoku_env.notation import format_moves

_TAG = re.compile(r'\[(\w+) "((?:[^"\\]|\\.)*)"\]')
_RESULTS = {"black": "1-0", "white": "0-1", None: "1/2-1/2"}


def _quote(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def format_record(result: GameResult, config: GameConfig) -> str:
    """The text of ``result``'s record."""
    outcome = result.outcome
    tags = {
        "Game": result.index,
        "Board": config.board_size,
        "WinLength": config.win_length,
        "Rule": config.rule.value,
        "Black": result.black,
        "White": result.white,
        "Opening": describe(result.opening, config.board_size),
        "Result": _RESULTS[outcome.winner],
        "Reason": outcome.reason,
    }
    if outcome.forfeit is not None:
        tags["Forfeit"] = outcome.forfeit
        tags["ForfeitDetail"] = outcome.detail
    header = "\n".join(f'[{key} "{_quote(value)}"]' for key, value in tags.items())
    return f"{header}\n\n{format_moves(list(outcome.moves), config.board_size)}\n"


def read_record(path: str | Path) -> tuple[dict[str, str], str]:
    """The tags and the move text of a record file."""
    text = Path(path).read_text()
    header, _, moves = text.partition("\n\n")
    tags = {key: re.sub(r"\\(.)", r"\1", value) for key, value in _TAG.findall(header)}
    if "Result" not in tags:
        raise ValueError(f"{str(path)!r} is not a game record: no Result tag")
    return tags, moves.strip()


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_records(
    results: Sequence[GameResult], directory: str | Path, config: GameConfig
) -> list[Path]:
    """Save each game as ``game-NNNNN.txt`` in ``directory`` (created if needed)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for result in results:
        path = directory / f"game-{result.index:05d}.txt"
        write_text_atomically(path, format_record(result, config))
        paths.append(path)
    return paths
