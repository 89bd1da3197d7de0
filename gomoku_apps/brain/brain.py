"""Any of our agents as a Gomocup brain: the command state machine and its I/O loop.

:class:`Brain` turns each manager line into the lines to answer (none for INFO and END,
exactly one for every other command, preceded by DEBUG lines when there is something to
tell), so that the manager and the brain never disagree on whose answer is whose. A bad
or unknown line is answered with ERROR or UNKNOWN and changes nothing.

Positions sent by a manager's BOARD block are checked (:func:`board_from_block`) before
the brain adopts them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import TextIO

from agents.base import Agent
from agents.gomocup.output import bounded_lines
from agents.gomocup.protocol import (
    INFO_NUMBER_MAX,
    OWN_STONE,
    ProtocolError,
    format_about,
    format_point,
    parse_board_line,
    parse_command,
    parse_int,
    parse_numbers,
    parse_point,
    rule_name,
)
from gomoku_apps.brain.thinking import AgentError, Thinker, TimeControl
from gomoku_env import kernels
from gomoku_env.board import COLOR_NAMES, Board
from gomoku_env.config import GameConfig, Rule
from gomoku_env.errors import IllegalMoveError
from gomoku_env.planes import board_from_stones


def board_from_block(stones: list[tuple[int, int]], config: GameConfig) -> Board:
    """The position of a BOARD block: ``(action, field)`` pairs, the brain to move.

    The brain moves next, so it has as many stones as its opponent (it plays black) or
    one fewer (white). The opponent's last listed stone becomes the last move; Gomocup
    managers list the stones in the order they were played.

    Raises:
        ProtocolError: a point is listed twice, the stone counts cannot have the brain
            to move, or somebody has already won.
    """
    counts = Counter(action for action, _ in stones)
    repeated = sorted(action for action, count in counts.items() if count > 1)
    if repeated:
        points = ", ".join(format_point(a, config.board_size) for a in repeated[:10])
        more = f" and {len(repeated) - 10} more" if len(repeated) > 10 else ""
        raise ProtocolError(f"BOARD lists these points twice: {points}{more}")
    own = [action for action, field in stones if field == OWN_STONE]
    opponent = [action for action, field in stones if field != OWN_STONE]
    if len(own) == len(opponent):
        black, white = own, opponent
    elif len(opponent) == len(own) + 1:
        black, white = opponent, own
    else:
        raise ProtocolError(
            f"BOARD has {len(own)} own and {len(opponent)} opponent stones: the brain "
            "to move must have as many stones as its opponent or one fewer"
        )
    last_move = opponent[-1] if opponent else None
    board = board_from_stones(black, white, last_move, config)
    _refuse_finished(board)
    return board


def _refuse_finished(board: Board) -> None:
    """Raise if a stone on ``board`` is part of a winning line."""
    config = board.config
    for action in board.moves:
        direction = kernels.winning_direction(
            board.cells, board.size, config.win_length, config.rule.code, action
        )
        if direction >= 0:
            color = COLOR_NAMES[int(board.cells[action])]
            raise ProtocolError(
                f"BOARD position is already won by {color} "
                f"(line through {format_point(action, board.size)})"
            )


AgentFactory = Callable[[GameConfig], Agent]
"""Builds the brain's agent for a game; raises ValueError for games it cannot play."""

WIN_LENGTH = 5
ANSWER_LIMIT = 300
"""Characters of an ERROR answer: a manager's line it quotes is cut to fit, so a 5 MB
line does not get a 5 MB answer."""


def shorten(text: str, limit: int = 60) -> str:
    """``text``, cut to ``limit`` characters with a note of how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


_TIME_KEYS = {
    "timeout_turn": "turn_ms",
    "timeout_match": "match_ms",
    "time_left": "time_left_ms",
}
_STORED_KEYS = ("max_memory", "game_type", "folder")


class Brain:
    """A Gomocup brain around an agent: feed it lines with :meth:`handle`.

    Args:
        agent_factory: builds the agent at START (and again when the rule changes).
        about: the fields of the ABOUT answer (name, version, author, country).
    """

    def __init__(self, agent_factory: AgentFactory, about: dict[str, str]) -> None:
        self._agent_factory = agent_factory
        self._about = dict(about)
        self.clock = TimeControl()
        self.info: dict[str, str] = {}
        self.rule = Rule.FREESTYLE
        self.refusal: str | None = None
        self.board: Board | None = None
        self.agent: Agent | None = None
        self.finished = False
        self._thinker = Thinker()
        self._abandoned: list[Thinker] = []
        self._block: list[str] | None = None
        self._skipping_block = False
        """Reading a BOARD block longer than the board to its DONE, keeping nothing."""

    def handle(self, line: str) -> list[str]:
        """The lines to answer to one manager line (none for INFO, END, blank lines)."""
        if self._block is not None or self._skipping_block:
            return self._collect_block_line(line)
        if not line.strip():
            return []
        command = parse_command(line)
        handler = getattr(self, f"_command_{command.name.lower()}", None)
        if handler is None:
            return [f"UNKNOWN command {shorten(command.name)!r} is not supported"]
        try:
            return handler(command.argument)
        except (ProtocolError, AgentError) as error:
            return [f"ERROR {shorten(str(error), ANSWER_LIMIT)}"]

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for abandoned moves; True once none runs."""
        return all(
            [thinker.wait(timeout) for thinker in (*self._abandoned, self._thinker)]
        )

    def _command_start(self, argument: str) -> list[str]:
        self._begin_game(parse_int(argument, "START board size"))
        return ["OK"]

    def _command_rectstart(self, argument: str) -> list[str]:
        width, height = parse_numbers(argument, 2, "RECTSTART size")
        if width != height:
            raise ProtocolError(
                f"only square boards are supported, got {width}x{height}"
            )
        return self._command_start(str(width))

    def _command_restart(self, argument: str) -> list[str]:
        board = self._game(argument)
        self._begin_game(board.size)
        return ["OK"]

    def _command_begin(self, argument: str) -> list[str]:
        board = self._game(argument)
        if board.moves:
            raise ProtocolError(f"BEGIN on a board with {len(board.moves)} stones")
        return self._move()

    def _command_turn(self, argument: str) -> list[str]:
        board = self._game("")
        action = parse_point(argument, board.size)
        try:
            board.play(action)
        except IllegalMoveError as error:
            raise ProtocolError(f"TURN {argument}: {error}") from None
        return self._move()

    def _command_board(self, argument: str) -> list[str]:
        self._game(argument)
        self._block = []
        return []

    def _command_takeback(self, argument: str) -> list[str]:
        board = self._game("")
        action = parse_point(argument, board.size)
        if action != board.last_move:
            last = (
                "none"
                if board.last_move is None
                else format_point(board.last_move, board.size)
            )
            raise ProtocolError(
                f"TAKEBACK {argument}: only the last move ({last}) can go"
            )
        board.undo()
        return ["OK"]

    def _command_info(self, argument: str) -> list[str]:
        key, _, value = argument.partition(" ")
        key, value = key.lower(), value.strip()
        if key in _TIME_KEYS:
            setattr(self.clock, _TIME_KEYS[key], _time_value(key, value))
        elif key == "rule":
            self._set_rule(_info_number("rule", value, "a rule code"))
        elif key in _STORED_KEYS:
            self.info[key] = value
        return []

    def _command_end(self, argument: str) -> list[str]:
        self.finished = True
        return []

    def _command_about(self, argument: str) -> list[str]:
        return [format_about(self._about)]

    def _game(self, argument: str) -> Board:
        """The current board; an error if no game can be played or args were given."""
        if argument:
            raise ProtocolError(f"unexpected argument {argument!r}")
        if self.refusal is not None:
            raise ProtocolError(self.refusal)
        if self.board is None:
            raise ProtocolError("no game: START has not succeeded yet")
        return self.board

    def _begin_game(self, size: int) -> None:
        """Start an empty game of ``size`` under the current rule."""
        if self.refusal is not None:
            raise ProtocolError(self.refusal)
        try:
            config = GameConfig(board_size=size, win_length=WIN_LENGTH, rule=self.rule)
        except (ValueError, TypeError) as error:
            raise ProtocolError(f"unsupported game: {error}") from None
        # Load the compiled rules now rather than in the first timed move.
        Board(config).play(config.cells // 2)
        self._adopt(config, Board(config))

    def _adopt(self, config: GameConfig, board: Board) -> None:
        """Play ``board`` from now on, building an agent for ``config`` when needed.

        A fresh agent replaces one built for another game or still running an
        abandoned move, and makes one warm-up move first; on failure nothing changes.
        """
        fresh = (
            self.agent is None
            or self._thinker.busy
            or self.board is None
            or self.board.config != config
        )
        thinker = Thinker() if fresh else self._thinker
        try:
            agent = self._agent_factory(config) if fresh else self.agent
            if fresh:
                thinker.warm_up(agent, config)
            agent.reset()
        except Exception as error:  # an agent bug becomes an ERROR answer, not a crash
            raise ProtocolError(f"the agent cannot play this game: {error}") from None
        if self._thinker.busy and thinker is not self._thinker:
            self._abandoned.append(self._thinker)
        self.agent, self.board, self._thinker = agent, board, thinker

    def _set_rule(self, code: int) -> None:
        """Switch to the rule of an ``INFO rule`` value, or refuse to play."""
        try:
            rule = Rule.parse(rule_name(code))
        except ValueError as error:
            self.refusal = f"unsupported rule {code}: {error}"
            raise ProtocolError(self.refusal) from None
        self.refusal, self.rule = None, rule
        board = self.board
        if board is not None and board.config.rule is not rule:
            config = GameConfig(board_size=board.size, win_length=WIN_LENGTH, rule=rule)
            try:
                replayed = Board.from_moves(board.moves, config)
            except ValueError as error:
                raise ProtocolError(
                    f"the stones on the board do not fit rule {rule.value}: {error}"
                ) from None
            self._adopt(config, replayed)

    def _collect_block_line(self, line: str) -> list[str]:
        """Gather BOARD lines; at DONE, adopt the position and move (or refuse it).

        A block longer than the board is read to its DONE but not kept, and refused
        there: memory stays bounded and the manager gets one answer, when it waits
        for one.
        """
        text = line.strip()
        if text.upper() == "END":
            self._block, self._skipping_block = None, False
            return self.handle(text)
        if text.upper() != "DONE":
            if self._skipping_block:
                return []
            if len(self._block) >= self.board.config.cells:
                # Read on to DONE without keeping anything, and answer once there: a
                # manager may write the whole block before it reads any answer.
                self._block, self._skipping_block = None, True
                return []
            self._block.append(text)
            return []
        if self._skipping_block:
            self._skipping_block = False
            return [
                f"ERROR BOARD lists more than the board's {self.board.config.cells} "
                "points; the block is dropped (send BOARD again)"
            ]
        lines, self._block = self._block, None
        board = self.board
        try:
            stones = [parse_board_line(item, board.size) for item in lines if item]
            position = board_from_block(stones, board.config)
        except ProtocolError as error:
            return [f"ERROR {error}"]
        try:
            self._adopt(position.config, position)
            return self._move()
        except (ProtocolError, AgentError) as error:
            return [f"ERROR {error}"]

    def _move(self) -> list[str]:
        """Let the agent move on the current board and answer with its point."""
        board = self.board
        if board.is_over:
            raise ProtocolError("the game is over: there is no move to make")
        action, notes = self._thinker.choose(self.agent, board, self.clock)
        board.play(action)
        return [*notes, format_point(action, board.size)]


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def _info_number(key: str, text: str, unit: str) -> int:
    """The whole number of an ``INFO`` line, within the 32-bit range of the protocol.

    A value out of that range is refused as such (not as "not an integer"), in the
    manager's terms: the key, the value (cut if long) and the largest value allowed.
    """
    shown = text if len(text) <= 30 else f"{text[:30]}..."
    if _WHOLE_NUMBER.fullmatch(text) is None:
        raise ProtocolError(
            f"INFO {key} must be a whole number ({unit}), got {shown!r}"
        )
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > len(str(INFO_NUMBER_MAX)) or abs(int(text)) > INFO_NUMBER_MAX:
        bound = (
            f"at least -{INFO_NUMBER_MAX}"
            if text.startswith("-")
            else (f"at most {INFO_NUMBER_MAX}")
        )
        raise ProtocolError(f"INFO {key} {shown} is out of range: {bound} {unit}")
    return int(text)


def _time_value(key: str, text: str) -> int:
    """The milliseconds of an ``INFO`` time value; only ``time_left`` may be negative.

    ``timeout_turn 0`` means "play as fast as possible" and ``timeout_match 0`` "no
    limit" (the Gomocup protocol); a negative limit is an error.
    """
    value = _info_number(key, text, "milliseconds")
    if value < 0 and key != "time_left":
        raise ProtocolError(f"INFO {key} must be >= 0 milliseconds, got {value}")
    return value


def run_brain(brain: Brain, commands: TextIO, answers: TextIO) -> None:
    """Answer the lines of ``commands`` on ``answers`` until END or end of input.

    Each line is cut to :data:`~agents.gomocup.output.LINE_LIMIT` characters as it
    is read (the rest dropped), so a line without end costs no memory.
    """
    for line in bounded_lines(commands):
        for answer in brain.handle(line):
            answers.write(answer + "\n")
        answers.flush()
        if brain.finished:
            return
