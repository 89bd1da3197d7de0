"""Game records of arena games: one small text file per game, in standard notation.

The format is the score-sheet format of ``gomoku_env.records`` (the pygame/records
work): headers, a blank line, then numbered move pairs, the opening included. What
only the arena knows goes into ``#`` comment lines, which record readers skip::

    # gomoku_env game record
    # Game: 12
    # Opening: h8 h9 j10
    # Forfeit: white
    # ForfeitDetail: RuntimeError: boom
    Rule: freestyle
    Size: 15
    WinLength: 5
    Black: mcts:simulations=200
    White: random
    Result: black
    Reason: crash

    1. h8 h9
    2. j10 g9

``Result`` is ``black``, ``white`` or ``draw``; ``Reason`` is ``five``, ``board_full`` or
a forfeit reason (``crash``, ``illegal_move``, ``timeout``). Files are written
atomically.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from agents.arena.openings import describe
from agents.arena.runner import GameResult
from gomoku_env.config import GameConfig
from gomoku_env.notation import action_to_notation

FILE_TITLE = "# gomoku_env game record"


def _one_line(value: object) -> str:
    return " ".join(str(value).split())


def format_record(result: GameResult, config: GameConfig) -> str:
    """The text of ``result``'s record."""
    outcome = result.outcome
    comments = {
        "Game": result.index,
        "Opening": describe(result.opening, config.board_size),
    }
    if outcome.forfeit is not None:
        comments.update(Forfeit=outcome.forfeit, ForfeitDetail=outcome.detail)
    headers = {
        "Rule": config.rule.value,
        "Size": config.board_size,
        "WinLength": config.win_length,
        "Black": result.black,
        "White": result.white,
        "Result": outcome.winner or "draw",
        "Reason": outcome.reason,
    }
    lines = [FILE_TITLE]
    lines += [f"# {key}: {_one_line(value)}" for key, value in comments.items()]
    lines += [f"{key}: {_one_line(value)}" for key, value in headers.items()]
    notation = [action_to_notation(move, config.board_size) for move in outcome.moves]
    lines.append("")
    lines += [
        f"{start // 2 + 1}. {' '.join(notation[start : start + 2])}"
        for start in range(0, len(notation), 2)
    ]
    return "\n".join(lines) + "\n"


def read_record(path: str | Path) -> tuple[dict[str, str], str]:
    """The headers (the arena's comment lines included) and the moves of a record."""
    tags: dict[str, str] = {}
    moves: list[str] = []
    for line in Path(path).read_text().splitlines():
        text = line.removeprefix("#").strip()
        if line[:1].isdigit():
            moves += line.partition(".")[2].split()
        elif ": " in text:
            key, _, value = text.partition(": ")
            tags[key] = value
    if "Result" not in tags:
        raise ValueError(f"{str(path)!r} is not a game record: no Result header")
    return tags, " ".join(moves)


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
