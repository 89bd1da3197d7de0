"""Game records of arena games: one small text file per game, in standard notation.

The format is :mod:`gomoku_env.records`' score sheet (so ``gomoku replay`` shows arena
games): headers, a blank line, then numbered move pairs, the opening included. What
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
from collections.abc import Sequence
from pathlib import Path

from gomoku_apps.arena.openings import describe
from gomoku_apps.arena.runner import GameResult
from gomoku_env.config import GameConfig
from gomoku_env.files import write_text_atomically
from gomoku_env.records import GameRecord


def game_record(result: GameResult, config: GameConfig) -> GameRecord:
    """The :class:`~gomoku_env.records.GameRecord` of an arena game."""
    outcome = result.outcome
    return GameRecord(
        config,
        outcome.moves,
        result.black,
        result.white,
        outcome.winner or "draw",
        outcome.reason,
    )


def arena_notes(result: GameResult, config: GameConfig) -> dict[str, str]:
    """What only the arena knows: game number, opening, forfeit and its detail."""
    notes = {
        "Game": str(result.index),
        "Opening": describe(result.opening, config.board_size),
    }
    if result.outcome.forfeit is not None:
        notes["Forfeit"] = result.outcome.forfeit
        notes["ForfeitDetail"] = " ".join(result.outcome.detail.split())
    return notes


def format_record(result: GameResult, config: GameConfig) -> str:
    """The text of ``result``'s record: the record format plus the arena's notes."""
    title, _, rest = game_record(result, config).to_text().partition("\n")
    notes = [f"# {key}: {value}" for key, value in arena_notes(result, config).items()]
    return "\n".join([title, *notes, rest])


def prepare_records_dir(directory: str | Path, overwrite: bool = False) -> Path:
    """Create ``directory`` for records now, so an unusable one fails before any game.

    A folder that already holds files (an earlier match's ``game-00000.txt``...) is
    refused unless ``overwrite``: this run's records would silently replace them.

    Raises:
        ValueError: the folder cannot be created or written to, or is not empty.
    """
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        first_entry = next(directory.iterdir(), None)
    except OSError as error:
        raise ValueError(f"cannot write records in {directory}: {error}") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write records in {directory}: permission denied")
    if first_entry is not None and not overwrite:
        raise ValueError(
            f"the records folder {directory} is not empty (it holds "
            f"{first_entry.name!r}); its game-NNNNN.txt files would be replaced: "
            "name an empty or new folder, or pass --force to write over them"
        )
    return directory


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
