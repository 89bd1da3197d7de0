"""The Gomocup ("Piskvork") brain protocol as pure text functions, no I/O.

A manager and a brain exchange one command per line. Coordinates are ``x,y`` with
``x`` the column and ``y`` the row counted from the top, both from 0; our actions are
``row * size + col`` with row 0 at the top, so ``action = y * size + x``. Everything
here turns protocol text into values or values into protocol text, and raises
:class:`ProtocolError` (a ``ValueError``) naming the bad text otherwise; the brain loop
and the engine agent do the talking.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MANAGER_COMMANDS = frozenset(
    {
        "START",
        "RECTSTART",
        "RESTART",
        "BEGIN",
        "TURN",
        "BOARD",
        "DONE",
        "TAKEBACK",
        "INFO",
        "END",
        "ABOUT",
    }
)
"""The commands a manager sends that the brain understands."""

OWN_STONE = 1
OPPONENT_STONE = 2

UNLIMITED_TIME_LEFT_MS = 2_147_483_647
"""``INFO time_left`` sends this when the match has no time limit."""
INFO_NUMBER_MAX = 2_147_483_647
"""The largest number an ``INFO`` line carries: Gomocup's are 32-bit."""
INFO_SECONDS_MAX = INFO_NUMBER_MAX // 1000
"""The longest time in seconds an ``INFO`` line can carry (it sends milliseconds)."""

GOMOCUP_RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}
"""Gomocup ``INFO rule`` values and the name of our :class:`~gomoku_env.Rule` for each.

The value is a bit mask: 1 = exactly five wins, 2 = continuous game, 4 = renju,
8 = caro. The combinations not listed here have no counterpart in this package.
"""

RULE_CODES = {name: code for code, name in GOMOCUP_RULE_NAMES.items()}
"""Our rule names and the Gomocup ``INFO rule`` value sent for each."""

_NUMBER = re.compile(r"[+-]?\d{1,12}")


class ProtocolError(ValueError):
    """Protocol text that cannot be understood; the message names the text."""


@dataclass(frozen=True)
class Command:
    """A manager command line: the upper-cased command word and the rest of the line."""

    name: str
    argument: str = ""


def parse_command(line: str) -> Command:
    """Split a manager line into its command word (upper-cased) and argument text.

    Raises:
        ProtocolError: the line is empty.
    """
    text = line.strip()
    if not text:
        raise ProtocolError("empty command line")
    name, _, argument = text.partition(" ")
    return Command(name.upper(), argument.strip())


def parse_int(text: str, what: str) -> int:
    """A decimal integer; ``what`` names the value in the error message."""
    if _NUMBER.fullmatch(text.strip()) is None:
        raise ProtocolError(f"{what} must be an integer, got {text!r}")
    return int(text)


def parse_numbers(text: str, count: int, what: str) -> tuple[int, ...]:
    """Exactly ``count`` comma-separated integers, as in ``"7,8"`` or ``"7,8,1"``."""
    parts = text.split(",")
    if len(parts) != count or not all(_NUMBER.fullmatch(p.strip()) for p in parts):
        raise ProtocolError(
            f"{what} needs {count} comma-separated integers, got {text!r}"
        )
    return tuple(int(part) for part in parts)


def point_to_action(x: int, y: int, board_size: int) -> int:
    """The action at column ``x``, row ``y`` (from the top); an error if off-board."""
    if not (0 <= x < board_size and 0 <= y < board_size):
        raise ProtocolError(
            f"point {x},{y} is off the {board_size}x{board_size} board "
            f"(coordinates run from 0 to {board_size - 1})"
        )
    return y * board_size + x


def parse_point(text: str, board_size: int) -> int:
    """The action for protocol coordinates such as ``"7,8"``."""
    x, y = parse_numbers(text, 2, "a point")
    return point_to_action(x, y, board_size)


def format_point(action: int, board_size: int) -> str:
    """Protocol coordinates ``"x,y"`` of an action."""
    row, col = divmod(int(action), board_size)
    return f"{col},{row}"


def parse_board_line(text: str, board_size: int) -> tuple[int, int]:
    """A line of the BOARD block, ``"x,y,field"``: the action and the field (1 or 2).

    Field 3 (a stone of the continuous game) is refused: this package does not play it.
    """
    x, y, field = parse_numbers(text, 3, "a BOARD line")
    if field not in (OWN_STONE, OPPONENT_STONE):
        raise ProtocolError(
            f"BOARD line {text!r}: field must be 1 (own stone) or 2 (opponent's), "
            f"got {field}"
        )
    return point_to_action(x, y, board_size), field


def rule_name(code: int) -> str:
    """Our rule name for a Gomocup ``INFO rule`` value; an error if unsupported."""
    if code not in GOMOCUP_RULE_NAMES:
        supported = ", ".join(f"{c} ({n})" for c, n in GOMOCUP_RULE_NAMES.items())
        raise ProtocolError(f"unsupported rule {code}; supported: {supported}")
    return GOMOCUP_RULE_NAMES[code]


def rule_code(name: str) -> int:
    """The Gomocup ``INFO rule`` value for one of our rule names."""
    if name not in RULE_CODES:
        raise ProtocolError(f"rule {name!r} has no Gomocup counterpart")
    return RULE_CODES[name]


def format_about(fields: dict[str, str]) -> str:
    """An ABOUT answer such as ``name="x", version="1.0"`` (drops quotes in values)."""
    return ", ".join(
        f'{key}="{value.replace(chr(34), "")}"' for key, value in fields.items()
    )


_ABOUT_FIELD = re.compile(r'\s*(\w+)\s*=\s*"([^"]*)"\s*,?')


def parse_about(text: str) -> dict[str, str]:
    """The ``key="value"`` pairs of an ABOUT answer; text outside them is ignored."""
    return dict(_ABOUT_FIELD.findall(text))
