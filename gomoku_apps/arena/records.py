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

:func:`recorded_result` reads a game back for the run that recorded it, so that an
interrupted run can go on from its records (``gomoku rate --resume``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from agents.game import GameOutcome
from gomoku_apps.arena.openings import describe
from gomoku_apps.arena.runner import GameResult, GameTask
from gomoku_env.config import GameConfig
from gomoku_env.files import read_text_file, write_text_atomically
from gomoku_env.records import GameRecord, RecordError


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
        path = directory / record_name(result.index)
        write_text_atomically(path, format_record(result, config))
        paths.append(path)
    return paths


def record_name(index: int) -> str:
    """The file name of game ``index``'s record: ``game-NNNNN.txt``."""
    return f"game-{index:05d}.txt"


def read_arena_record(path: str | Path) -> tuple[GameRecord, dict[str, str]]:
    """A record as :func:`write_records` wrote it: the game and the arena's notes.

    Raises:
        FileNotFoundError: there is no such file.
        RecordError: not a regular file, too large, or not a valid record (names the
            file and the line).
    """
    text = read_text_file(path, "a game record", RecordError)
    notes = {}
    for line in text.splitlines()[1:]:
        if not line.startswith("# "):
            break
        key, separator, value = line.removeprefix("# ").partition(": ")
        if separator:
            notes[key] = value
    return GameRecord.from_text(text, source=str(path)), notes


def recorded_result(directory: str | Path, task: GameTask) -> GameResult | None:
    """``task``'s game as a run recorded it in ``directory``, for that run to go on.

    None when the folder holds no record of the game, or a forfeited one: a crash or a
    lost clock says nothing about the agents' play, so that game is played again. A
    resumed game's thinking time is not in its record and counts as 0.

    Raises:
        ValueError: the record is of another game (other players, rules or opening:
            another run's folder), or not a valid record.
    """
    path = Path(directory) / record_name(task.index)
    try:
        record, notes = read_arena_record(path)
    except FileNotFoundError:
        return None
    size = task.config.board_size
    found = (record.config, record.black, record.white, notes.get("Opening"))
    wanted = (task.config, task.black, task.white, describe(task.opening, size))
    if found != wanted or notes.get("Game") != str(task.index):
        raise ValueError(
            f"{path} is not this run's game {task.index} ({task.black} against "
            f"{task.white}, opening {wanted[3]}): it records {record.black} against "
            f"{record.white}, opening {notes.get('Opening')}; resume a run only "
            "from its own records folder, with the same command"
        )
    if "Forfeit" in notes:
        return None
    chosen = range(len(task.opening), len(record.moves))
    black_moves = sum(1 for number in chosen if number % 2 == 0)
    outcome = GameOutcome(
        None if record.result == "draw" else record.result,
        record.reason,
        None,
        "",
        record.moves,
        (0.0, 0.0),
        (black_moves, len(chosen) - black_moves),
    )
    return GameResult(task.index, task.black, task.white, task.opening, outcome)
