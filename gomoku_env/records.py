"""Game records: a game saved as text (rule, size, players, result, moves), read back.

The format reads like a score sheet, one header per line and then numbered move pairs in
standard notation::

    # gomoku_env game record
    Rule: freestyle
    Size: 15
    WinLength: 5
    Black: human
    White: random
    Result: black
    Reason: five

    1. h8 i9
    2. h9 i10

``Result`` is ``black``, ``white``, ``draw`` or ``unfinished``; ``Reason`` says why the
game ended, one of :data:`RECORD_REASONS` (``five``, ``resign``, ``board_full``, a
forfeit…), and may be empty. Lines starting with
``#`` are comments. Reading checks everything (headers, move numbers, each move's
legality, the result against the position) and names the line of the first problem.

A header value holds at most :data:`HEADER_LIMIT` characters: a record is refused when
one is longer, and a record made by a program cuts a longer player name to that
length (ending in "…"), so no name costs a viewer more than a line to draw.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from gomoku_env.board import COLOR_NAMES, Board
from gomoku_env.config import GameConfig, Rule
from gomoku_env.errors import IllegalMoveError, NotationError
from gomoku_env.files import read_text_file, write_atomically
from gomoku_env.kernels import EMPTY
from gomoku_env.notation import action_to_notation, notation_to_action
from gomoku_env.outcome import END_REASONS

RESULTS = ("black", "white", "draw", "unfinished")
REQUIRED_HEADERS = ("Rule", "Size", "WinLength", "Black", "White", "Result")
OPTIONAL_HEADERS = ("Reason", "Date")
RECORD_REASONS = ("", *END_REASONS, "resign", "crash", "timeout")
"""The words a ``Reason`` may be: none, how an env ends a game, a person's
resignation, or a game loop's forfeit (``crash``, ``illegal_move``, ``timeout``)."""
REASON_SHOWN = 40
"""Characters of an unknown reason that its error quotes."""
ASCII_DIGITS = "0123456789"
MOVE_NUMBER_DIGITS = 4
"""A move pair's number has at most this many digits (a 25×25 board has 313 pairs);
longer ones are refused before ``int`` reads them."""
FILE_TITLE = "# gomoku_env game record"
HEADER_LIMIT = 200
"""Characters of a header value (a player's name, a date) at most."""
MESSAGE_LIMIT = 300
"""Characters of an error message kept: a huge bad token must not make a huge error."""


class RecordError(ValueError):
    """A malformed game record; the message names the line and what is wrong."""


def result_of(board: Board) -> tuple[str, str]:
    """(result, reason) read off a position: a five, a renju forbidden move, a full
    board, or unfinished."""
    if board.forbidden_loss is not None:
        return COLOR_NAMES[int(board.winner)], f"forbidden_{board.forbidden_loss}"
    if board.winner != EMPTY:
        return COLOR_NAMES[int(board.winner)], "five"
    if board.is_full:
        return "draw", "board_full"
    return "unfinished", ""


def _checked_name(label: str, name: str) -> str:
    """``name`` if it is one line of text, cut to HEADER_LIMIT characters."""
    if not isinstance(name, str) or not name.strip() or "\n" in name:
        raise ValueError(
            f"{label} must be a non-empty single-line string, got {_cut(repr(name))}"
        )
    if len(name) > HEADER_LIMIT:
        return name[: HEADER_LIMIT - 1] + "…"
    return name


@dataclass(frozen=True)
class GameRecord:
    """One game: its configuration, moves (actions), players and result.

    Construction checks that the moves form a legal game and that the result agrees with
    the final position (a five can only be won by its owner, and a position without a
    five cannot be a win by a five).
    """

    config: GameConfig
    moves: tuple[int, ...]
    black: str = "black"
    white: str = "white"
    result: str = "unfinished"
    reason: str = ""
    date: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", tuple(int(move) for move in self.moves))
        object.__setattr__(self, "black", _checked_name("black", self.black))
        object.__setattr__(self, "white", _checked_name("white", self.white))
        if self.result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, got {self.result!r}")
        if self.reason not in RECORD_REASONS:
            shown = repr(self.reason[:REASON_SHOWN])
            if len(self.reason) > REASON_SHOWN:
                shown += f"... ({len(self.reason) - REASON_SHOWN} more characters)"
            known = ", ".join(repr(word) for word in RECORD_REASONS if word)
            raise ValueError(f"unknown reason {shown}; a reason is one of {known}")
        board = Board.from_moves(self.moves, self.config)
        decided, _ = result_of(board)
        if board.winner != EMPTY and self.result != decided:
            raise ValueError(
                f"result {self.result!r} contradicts the moves: "
                f"{decided} has five in a row"
            )
        if board.winner == EMPTY and self.reason == "five":
            raise ValueError(
                f"reason 'five' but nobody has {self.config.win_length} in a row"
            )
        if self.reason.startswith("forbidden_") and (
            self.config.rule is not Rule.RENJU or self.result != "white"
        ):
            raise ValueError(
                f"reason {self.reason!r} means white won under renju, but the record "
                f"says {self.config.rule.value} and result {self.result!r}"
            )
        if self.reason == "resign" and self.result not in ("black", "white"):
            raise ValueError(
                f"reason 'resign' means one side won, but the result is {self.result!r}"
            )
        if self.reason == "board_full" and (decided, self.result) != ("draw", "draw"):
            raise ValueError(
                f"reason 'board_full' but the result is {self.result!r} after "
                f"{len(self.moves)} moves on {self.config.cells} points"
            )

    @classmethod
    def from_board(
        cls,
        board: Board,
        black: str = "black",
        white: str = "white",
        result: str | None = None,
        reason: str | None = None,
        date: str = "",
    ) -> GameRecord:
        """The record of the game on ``board``, its result read off it if not given."""
        found_result, found_reason = result_of(board)
        return cls(
            board.config,
            tuple(board.moves),
            black,
            white,
            result if result is not None else found_result,
            reason if reason is not None else found_reason,
            date,
        )

    def board(self, move_count: int | None = None) -> Board:
        """The position after the first ``move_count`` moves (by default, all)."""
        count = len(self.moves) if move_count is None else move_count
        if not 0 <= count <= len(self.moves):
            raise ValueError(
                f"move_count must be in 0..{len(self.moves)}, got {move_count!r}"
            )
        return Board.from_moves(self.moves[:count], self.config)

    def to_text(self) -> str:
        """The record in the text format of this module."""
        config = self.config
        lines = [
            FILE_TITLE,
            f"Rule: {config.rule.value}",
            f"Size: {config.board_size}",
            f"WinLength: {config.win_length}",
            f"Black: {self.black}",
            f"White: {self.white}",
            f"Result: {self.result}",
            f"Reason: {self.reason}",
        ]
        if self.date:
            lines.append(f"Date: {self.date}")
        lines.append("")
        notation = [action_to_notation(move, config.board_size) for move in self.moves]
        for start in range(0, len(notation), 2):
            lines.append(f"{start // 2 + 1}. {' '.join(notation[start : start + 2])}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, source: str = "record") -> GameRecord:
        """Parse a record; a :class:`RecordError` names ``source``, line and problem."""
        return _RecordParser(source).parse(text)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the record to ``path`` atomically (a temporary file, then a rename).

        Raises:
            ValueError: ``path`` is a symlink, a device or anything else but a
                regular file, which the rename would replace.
        """
        text = self.to_text()
        return write_atomically(
            path, lambda temporary: temporary.write_text(text, "utf-8")
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record file; RecordError names the file and the line of a problem
        (also for a directory or a file that is not UTF-8 text)."""
        path = Path(path)
        text = read_text_file(path, "a game record", RecordError)
        return cls.from_text(text, source=str(path))


def _cut(message: str) -> str:
    """``message`` cut to MESSAGE_LIMIT characters, saying how long it was."""
    if len(message) <= MESSAGE_LIMIT:
        return message
    return f"{message[:MESSAGE_LIMIT]}... (cut from {len(message)} characters)"


class _RecordParser:
    """Reads a record line by line, remembering where each header was for errors."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.headers: dict[str, tuple[int, str]] = {}
        self.move_lines: list[tuple[int, list[str]]] = []
        self.headers_end = 0

    def error(self, line_number: int, message: str) -> RecordError:
        return RecordError(f"{self.source}, line {line_number}: {_cut(message)}")

    def parse(self, text: str) -> GameRecord:
        text = text.removeprefix("\ufeff")  # a byte order mark some editors write
        for line_number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line[0] in ASCII_DIGITS:
                self._read_move_line(line_number, line)
            else:
                self._read_header(line_number, line)
        first_move_line = self.move_lines[0][0] if self.move_lines else None
        self.headers_end = first_move_line or len(text.splitlines())
        return self._build()

    def _read_header(self, line_number: int, line: str) -> None:
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon:
            raise self.error(
                line_number,
                f"expected 'Key: value' or a numbered move pair, got {line!r}",
            )
        if self.move_lines:
            raise self.error(line_number, f"header {key!r} after the moves")
        if key not in REQUIRED_HEADERS + OPTIONAL_HEADERS:
            known = ", ".join(REQUIRED_HEADERS + OPTIONAL_HEADERS)
            raise self.error(
                line_number, f"unknown header {key!r} (known headers: {known})"
            )
        if key in self.headers:
            raise self.error(
                line_number,
                f"header {key!r} given twice (first on line {self.headers[key][0]})",
            )
        value = value.strip()
        if len(value) > HEADER_LIMIT:
            raise self.error(
                line_number,
                f"header {key!r} is {len(value)} characters long; a record's header "
                f"values hold at most {HEADER_LIMIT}",
            )
        self.headers[key] = (line_number, value)

    def _read_move_line(self, line_number: int, line: str) -> None:
        number, dot, rest = line.partition(".")
        expected = len(self.move_lines) + 1
        digits = len(number) <= MOVE_NUMBER_DIGITS and set(number) <= set(ASCII_DIGITS)
        if not dot or not number or not digits or int(number) != expected:
            raise self.error(
                line_number, f"expected move pair number '{expected}.', got {line!r}"
            )
        tokens = rest.split()
        if not 1 <= len(tokens) <= 2:
            raise self.error(
                line_number,
                f"expected one or two moves after '{expected}.', got {len(tokens)}",
            )
        if self.move_lines and len(self.move_lines[-1][1]) == 1:
            raise self.error(
                line_number,
                f"move pair {expected - 1} has only one move but is not the last",
            )
        self.move_lines.append((line_number, tokens))

    def _header(self, key: str) -> tuple[int, str]:
        if key not in self.headers:
            raise self.error(self.headers_end, f"missing header {key!r}")
        return self.headers[key]

    def _config(self) -> GameConfig:
        values = {}
        for key in ("Size", "WinLength"):
            line_number, text = self._header(key)
            if not (text.isascii() and text.isdigit()):
                raise self.error(
                    line_number, f"{key} must be a whole number, got {text!r}"
                )
            values[key] = int(text)
        _, rule = self._header("Rule")
        try:
            return GameConfig(values["Size"], values["WinLength"], rule)
        except ValueError as error:
            fields = {"board_size": "Size", "win_length": "WinLength"}
            key = fields.get(str(error).split()[0], "Rule")
            raise self.error(self.headers[key][0], str(error)) from None

    def _moves(self, config: GameConfig) -> tuple[int, ...]:
        board = Board(config)
        for line_number, tokens in self.move_lines:
            for token in tokens:
                try:
                    board.play(notation_to_action(token, config.board_size))
                except (NotationError, IllegalMoveError) as error:
                    raise self.error(
                        line_number, f"move {len(board.moves) + 1} {token!r}: {error}"
                    ) from None
        return tuple(board.moves)

    def _build(self) -> GameRecord:
        config = self._config()
        moves = self._moves(config)
        result_line, result = self._header("Result")
        names = {}
        for key in ("Black", "White"):
            line_number, names[key] = self._header(key)
            if not names[key]:
                raise self.error(
                    line_number, f"{key} must name the player, got nothing"
                )
        try:
            return GameRecord(
                config,
                moves,
                names["Black"],
                names["White"],
                result,
                self.headers.get("Reason", (0, ""))[1],
                self.headers.get("Date", (0, ""))[1],
            )
        except ValueError as error:
            raise self.error(result_line, str(error)) from None
