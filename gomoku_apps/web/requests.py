"""Reading what the page sends: new-game options and game commands, checked field by
field so that a bad value is refused with its name before anything changes; and the
errors of the web API, each naming the bad value and carrying its HTTP status."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.specs import parse as specs
from gomoku_apps.gui.session import HUMAN
from gomoku_env.board import Board
from gomoku_env.config import GameConfig, Rule
from gomoku_env.fields import check_number
from gomoku_env.notation import action_to_notation, notation_to_action

MAX_MESSAGE_CHARS = 300
"""Longest error message sent back: a refusal names the bad value, never all of it."""
SHOWN_CHARS = 40
"""Characters of a bad value quoted in an error (see :func:`shown`)."""


def shown(value: object) -> str:
    """``repr(value)`` cut to :data:`SHOWN_CHARS` characters (then "…"), for quoting
    what a request sent without echoing it whole."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


class RequestError(ValueError):
    """A request the server refuses; nothing changed. ``status`` is the HTTP code.
    The message is cut to :data:`MAX_MESSAGE_CHARS` (a message quoting input from
    another layer cannot grow with that input)."""

    status = 400

    def __init__(self, message: str) -> None:
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[:MAX_MESSAGE_CHARS] + "…"
        super().__init__(message)


class UnknownGameError(RequestError):
    """No game has this id (it never existed, was deleted or was replaced)."""

    status = 404


class ConflictError(RequestError):
    """The request is well formed but not allowed now: an occupied or forbidden point,
    a move out of turn, undo with nothing to undo, the game already over."""

    status = 409


class BusyError(RequestError):
    """Too many games are starting at once (their agents' processes)."""

    status = 429


class TooLargeError(RequestError):
    """A request body or message larger than the server accepts."""

    status = 413


MAX_REQUEST_BYTES = 65_536
"""Largest request body or websocket message accepted (a record of a full 25×25 game
is under 4 KB)."""
MAX_DELAY_S = 10.0
DEFAULT_MOVE_TIME_S = 60.0
PROGRAM_AGENTS = ("python", "engine")
"""Spec names that run code named by the request: allowed only when the person who
started the server asked for it (``gomoku serve --allow-programs``)."""
COMMANDS = ("move", "undo", "resign", "swap", "new", "speed")
COMMAND_FIELDS = {"move": ("type", "point", "color"), "speed": ("type", "delay")}
"""The fields each command accepts (a command not listed: ``type`` only)."""
REMOTE_OPTION_LIMITS = {
    "table_bits": 22,
    "max_nodes": 200_000,
    "threads": 2,
    "simulations": 20_000,
    "nodes": 2_000_000,
    "vcf_nodes": 200_000,
    "leaves_per_round": 256,
    "edges_per_node": 64,
    "vcf_plies": 64,
    "leaf_vcf_plies": 16,
}
"""The most memory or CPU an agent option from a page may ask for when programs are
not allowed (a server off loopback): ``alphabeta:table_bits=34`` asked for a 16 GiB
table, ``alphazero:threads=100000`` for that many threads."""
FILE_OPTIONS = ("weights",)
"""Spec options that name a file on the server's machine."""
GAME_FIELDS = (
    "size", "win_length", "rule", "black", "white", "seed", "delay", "opening",
)  # fmt: skip


@dataclass(frozen=True)
class SpecPolicy:
    """What agent specs from the page may name on the server's machine.

    ``allow_programs``: ``python:`` and ``engine:`` specs, which run code the page
    names; only when the person who started the server asked for them
    (``gomoku serve --allow-programs``), wherever it listens. ``loopback``: the
    server is reachable from this machine only, so a page's agent may be as large
    as it asks and read weights files anywhere (files are loaded as tensors only,
    never as code); ``allow_programs`` allows both too. Otherwise a ``weights``
    option names a bundled network or a file directly in ``weights_dir`` (when the
    server was given one), and every other value gets the same refusal, so the page
    cannot learn which files exist.
    """

    allow_programs: bool = False
    weights_dir: Path | None = None
    loopback: bool = False


@dataclass(frozen=True)
class GameOptions:
    """A new game: its rules, who plays each colour (``"human"`` or a spec), the seed
    of the agents, the least seconds per agent move, the move time limit, and the
    opening (actions played before anyone moves: a record played on from a move)."""

    config: GameConfig
    black: str
    white: str
    seed: int | None
    delay: float
    move_time: float | None
    opening: tuple[int, ...] = ()


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
    except (ValueError, RecursionError) as error:
        # ValueError: bad JSON, bad UTF-8, or an integer of thousands of digits;
        # RecursionError: arrays or objects nested tens of thousands deep.
        reason = "nested too deep" if isinstance(error, RecursionError) else error
        raise RequestError(f"the request is not valid JSON: {reason}") from None
    if not isinstance(data, dict):
        raise RequestError(f"expected a JSON object, got {type(data).__name__}")
    return data


def _check_fields(data: dict, accepted: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(data) - set(accepted))
    if unknown:
        names = ", ".join(shown(name) for name in unknown[:3])
        more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        raise RequestError(
            f"unknown field(s) {names}{more} in {what}; accepted: {list(accepted)}"
        )


def _int_field(data: dict, key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise RequestError(f"{key} must be an integer, got {shown(value)}")


def _seconds_field(data: dict, key: str, default: float, high: float) -> float:
    try:
        return check_number(key, data.get(key, default), minimum=0, maximum=high)
    except (TypeError, ValueError) as error:
        raise RequestError(f"{error} (seconds)") from None


def check_spec(spec: object, policy: SpecPolicy) -> str:
    """``spec`` if it names a person or a registered agent in valid syntax with
    options it declares (:func:`agents.specs.parse.check_spec`) and what ``policy``
    allows; their ranges are checked when the agent is built (in its process). A
    weights file from the server's weights folder comes back as its full path."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 500:
        raise RequestError(
            f"a player must be 'human' or an agent spec, got {shown(spec)}"
        )
    spec = spec.strip()
    if spec.lower() == HUMAN:
        return HUMAN
    try:
        name, options = specs.check_spec(spec)
    except ValueError as error:
        raise RequestError(str(error)) from None
    if name in PROGRAM_AGENTS and not policy.allow_programs:
        raise RequestError(
            f"spec {shown(spec)} runs a program, which this server runs only when "
            "the person who started it asked for that (gomoku serve --allow-programs)"
        )
    if policy.allow_programs or policy.loopback:
        return spec
    for key, most in REMOTE_OPTION_LIMITS.items():
        value = options.get(key)
        if key in options and value is None:  # "none" lifts the option's own limit
            raise RequestError(
                f"{key}=none is unlimited, which this server does not give a page's "
                f"agent ({key} <= {most}; loopback or --allow-programs lifts this)"
            )
        if isinstance(value, (int, float)) and value > most:
            raise RequestError(
                f"{key}={shown(str(value))} is more than this server gives a page's "
                f"agent ({key} <= {most}; loopback or --allow-programs lifts this)"
            )
    for key in FILE_OPTIONS:
        if options.get(key) is not None:
            path = _served_file(str(options[key]), policy.weights_dir)
            spec = _with_option(spec, key, path)
    return spec


def _served_file(value: str, weights_dir: Path | None) -> str:
    """A bundled network's name, or the path of a file directly in ``weights_dir``;
    one refusal for every other value, whether or not such a file exists."""
    bundled = _bundled_weights()
    if value in bundled:
        return value
    if (
        weights_dir is not None
        and re.fullmatch(r"[\w.-]+", value)
        and value.strip(".")
        and (weights_dir / value).is_file()
    ):
        return str(weights_dir / value)
    choices = ", ".join(bundled) or "none shipped"
    folder = " or a file in the server's --weights-dir folder" if weights_dir else ""
    raise RequestError(
        f"weights must name a bundled network ({choices}){folder}; this server "
        "opens no other file for the page"
    )


def _bundled_weights() -> list[str]:
    try:
        from agents.alphazero.checkpoint import bundled_names
    except ImportError:  # no torch: no AlphaZero agent will build anyway
        return []
    return bundled_names()


def _with_option(spec: str, key: str, value: str) -> str:
    """``spec`` with option ``key`` set to ``value`` (it is given once, as checked)."""
    name, _, option_text = spec.partition(":")
    items = [
        f"{key}={value}" if item.partition("=")[0].strip() == key else item
        for item in option_text.split(",")
    ]
    return f"{name}:{','.join(items)}"


def game_options(
    data: dict[str, Any], policy: SpecPolicy, move_time: float | None
) -> GameOptions:
    """The :class:`GameOptions` in a new-game request; RequestError names a bad field."""
    _check_fields(data, GAME_FIELDS, "a new game")
    size = _int_field(data, "size", 15)
    win_length = _int_field(data, "win_length", 5)
    try:
        config = GameConfig(size, win_length, Rule.parse(data.get("rule", "freestyle")))
    except (ValueError, TypeError) as error:
        raise RequestError(str(error)) from None
    black = check_spec(data.get("black", HUMAN), policy)
    white = check_spec(data.get("white", "random"), policy)
    default_delay = 0.0 if HUMAN in (black, white) else 0.5
    delay = _seconds_field(data, "delay", default_delay, MAX_DELAY_S)
    seed = _int_field(data, "seed", None)
    opening = _opening(data.get("opening", []), config)
    return GameOptions(config, black, white, seed, delay, move_time, opening)


def _opening(points: object, config: GameConfig) -> tuple[int, ...]:
    """The actions of an opening given as points in notation, each legal in turn; one
    that ends the game is refused too (there would be nothing left to play)."""
    cells = config.board_size * config.board_size
    if not isinstance(points, list) or len(points) >= cells:
        raise RequestError(
            f"opening must be a list of fewer than {cells} points like 'h8', "
            f"got {shown(points)}"
        )
    board = Board(config)
    for number, point in enumerate(points, start=1):
        if not isinstance(point, str):
            raise RequestError(
                f"opening move {number} must be a point like 'h8', got {shown(point)}"
            )
        try:
            action = notation_to_action(point, config.board_size)
        except ValueError as error:
            raise RequestError(f"opening move {number}: {error}") from None
        name = action_to_notation(action, config.board_size)
        if board.cells[action]:
            raise RequestError(f"opening move {number} {name}: the point is occupied")
        forbidden = board.forbidden_reason(action)
        if forbidden:
            raise RequestError(
                f"opening move {number} {name}: forbidden to black ({forbidden})"
            )
        board.play(action)
        if board.is_over:
            raise RequestError(
                f"opening move {number} {name} ends the game; play on from an "
                "earlier move"
            )
    return tuple(int(move) for move in board.moves)


def command(data: dict[str, Any], board_size: int) -> Command:
    """The :class:`Command` in a command request or websocket message."""
    kind = data.get("type")
    if kind not in COMMANDS:
        raise RequestError(
            f"unknown command type {shown(kind)}; expected one of {COMMANDS}"
        )
    _check_fields(data, COMMAND_FIELDS.get(kind, ("type",)), f"a {kind} command")
    if kind == "speed":
        return Command(kind, delay=_seconds_field(data, "delay", -1, MAX_DELAY_S))
    if kind != "move":
        return Command(kind)
    color = data.get("color")
    if color not in (None, "black", "white"):
        raise RequestError(f"color must be 'black' or 'white', got {shown(color)}")
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
        f"point must be a point like 'h8' or an action in 0..{cells - 1}, "
        f"got {shown(point)}"
    )
