"""Reading what the page sends: new-game options and game commands, checked field by
field so that a bad value is refused with its name before anything changes; and the
errors of the web API, each naming the bad value and carrying its HTTP status."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agents import specs
from gomoku_apps.gui.session import HUMAN
from gomoku_env.config import GameConfig, Rule
from gomoku_env.errors import check_number
from gomoku_env.notation import notation_to_action


class RequestError(ValueError):
    """A request the server refuses; nothing changed. ``status`` is the HTTP code."""

    status = 400


class UnknownGameError(RequestError):
    """No game has this id (it never existed, was deleted or was replaced)."""

    status = 404


class ConflictError(RequestError):
    """The request is well formed but not allowed now: an occupied or forbidden point,
    a move out of turn, undo with nothing to undo, the game already over."""

    status = 409


class TooLargeError(RequestError):
    """A request body or message larger than the server accepts."""

    status = 413


MAX_REQUEST_BYTES = 65_536
"""Largest request body or websocket message accepted (a record of a full 25×25 game
is under 4 KB)."""
MAX_DELAY_S = 10.0
MAX_MOVE_TIME_S = 600.0
DEFAULT_MOVE_TIME_S = 60.0
PROGRAM_AGENTS = ("python", "engine")
"""Spec names that run code named by the request: allowed only when the server says so
(by default, when it listens on loopback only)."""
COMMANDS = ("move", "undo", "resign", "swap", "new", "speed")
GAME_FIELDS = ("size", "win_length", "rule", "black", "white", "seed", "delay")


@dataclass(frozen=True)
class GameOptions:
    """A new game: its rules, who plays each colour (``"human"`` or a spec), the seed
    of the agents, the least seconds per agent move, and the move time limit."""

    config: GameConfig
    black: str
    white: str
    seed: int | None
    delay: float
    move_time: float | None


@dataclass(frozen=True)
class Command:
    """One game command: ``kind`` is one of :data:`COMMANDS`; ``point`` is the action
    of a move, ``color`` the colour the sender expects to move (None: any), ``delay``
    the new speed."""

    kind: str
    point: int | None = None
    color: str | None = None
    delay: float | None = None


def decode_json(body: bytes | str) -> dict[str, Any]:
    """The JSON object in ``body``; RequestError for anything else or too much."""
    if len(body) > MAX_REQUEST_BYTES:
        raise TooLargeError(
            f"request of {len(body)} bytes is over the limit of {MAX_REQUEST_BYTES}"
        )
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RequestError(f"the request is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise RequestError(f"expected a JSON object, got {type(data).__name__}")
    return data


def _int_field(data: dict, key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise RequestError(f"{key} must be an integer, got {value!r}")


def _seconds_field(data: dict, key: str, default: float, high: float) -> float:
    try:
        return check_number(key, data.get(key, default), minimum=0, maximum=high)
    except (TypeError, ValueError) as error:
        raise RequestError(f"{error} (seconds)") from None


def check_spec(spec: object, allow_programs: bool) -> str:
    """``spec`` if it names a person or a registered agent in valid syntax with
    options it declares (:func:`agents.specs.check_spec`); their ranges are checked
    when the agent is built (in its process)."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 500:
        raise RequestError(f"a player must be 'human' or an agent spec, got {spec!r}")
    spec = spec.strip()
    if spec.lower() == HUMAN:
        return HUMAN
    try:
        name, _ = specs.check_spec(spec)
    except ValueError as error:
        raise RequestError(str(error)) from None
    if name in PROGRAM_AGENTS and not allow_programs:
        raise RequestError(
            f"spec {spec!r} runs a program, which this server allows only when it "
            "listens on loopback (or with --allow-programs)"
        )
    return spec


def game_options(
    data: dict[str, Any], allow_programs: bool, move_time: float | None
) -> GameOptions:
    """The :class:`GameOptions` in a new-game request; RequestError names a bad field."""
    unknown = sorted(set(data) - set(GAME_FIELDS))
    if unknown:
        raise RequestError(f"unknown field(s) {unknown}; accepted: {list(GAME_FIELDS)}")
    size = _int_field(data, "size", 15)
    win_length = _int_field(data, "win_length", 5)
    try:
        config = GameConfig(size, win_length, Rule.parse(data.get("rule", "freestyle")))
    except (ValueError, TypeError) as error:
        raise RequestError(str(error)) from None
    black = check_spec(data.get("black", HUMAN), allow_programs)
    white = check_spec(data.get("white", "random"), allow_programs)
    default_delay = 0.0 if HUMAN in (black, white) else 0.5
    delay = _seconds_field(data, "delay", default_delay, MAX_DELAY_S)
    seed = _int_field(data, "seed", None)
    return GameOptions(config, black, white, seed, delay, move_time)


def command(data: dict[str, Any], board_size: int) -> Command:
    """The :class:`Command` in a command request or websocket message."""
    kind = data.get("type")
    if kind not in COMMANDS:
        raise RequestError(f"unknown command type {kind!r}; expected one of {COMMANDS}")
    if kind == "speed":
        return Command(kind, delay=_seconds_field(data, "delay", -1, MAX_DELAY_S))
    if kind != "move":
        return Command(kind)
    color = data.get("color")
    if color not in (None, "black", "white"):
        raise RequestError(f"color must be 'black' or 'white', got {color!r}")
    return Command(kind, point=_point(data.get("point"), board_size), color=color)


def _point(point: object, board_size: int) -> int:
    """The action for a point given in notation ("h8") or as an action index."""
    if isinstance(point, str):
        try:
            return notation_to_action(point, board_size)
        except ValueError as error:
            raise RequestError(str(error)) from None
    cells = board_size * board_size
    if isinstance(point, int) and not isinstance(point, bool) and 0 <= point < cells:
        return point
    raise RequestError(
        f"point must be a point like 'h8' or an action in 0..{cells - 1}, got {point!r}"
    )
