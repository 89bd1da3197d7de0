"""EngineAgent: an external Gomocup engine playing as one of our agents.

The agent starts the engine, sends it the board size (START), the rule and the time
limits (INFO), asks its name (ABOUT), and then turns each observation into the fewest
commands that bring the engine's board to the observed position: TURN with the
opponent's last move when the engine saw every earlier move, otherwise RESTART and
BEGIN or a BOARD block. The engine's answer is checked to be a legal move before it
is returned. After each move the engine must show that it is ready (it answers an
ABOUT probe) before it hears the next command: engines such as Rapfi lose commands
sent too soon (see :mod:`agents.gomocup.engine`).

Failures raise :class:`~agents.gomocup.errors.EngineError` subclasses that tell a game
loop how to score them (their ``forfeit_reason``): an engine that stays silent forfeits
on time (``timeout``), one that answers a point off the board or on a stone plays an
``illegal_move``; anything else (a refusal, an unreadable answer, an exit) is a crash.

Spec: ``"engine:PATH,time=1.0"`` (see :func:`agents.specs.parse.make_agent`).
"""

from __future__ import annotations

import time as clock
from collections import deque
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import numpy as np

from agents.gomocup.engine import EngineProcess
from agents.gomocup.errors import (
    EngineError,
    EngineExitedError,
    EngineIllegalMoveError,
    EngineTimeoutError,
)
from agents.gomocup.protocol import (
    INFO_NUMBER_MAX,
    INFO_SECONDS_MAX,
    OPPONENT_STONE,
    OWN_STONE,
    ProtocolError,
    format_point,
    parse_about,
    parse_numbers,
    point_to_action,
    rule_code,
)
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number
from gomoku_env.kernels import EMPTY
from gomoku_env.planes import board_from_observation

ENGINE_WIN_LENGTH = 5
GAME_TYPE_BRAIN = 1
"""``INFO game_type`` value telling the engine that its opponent is a program."""


class EngineAgent:
    """Plays the moves of an external Gomocup engine (a ``pbrain-*`` program).

    Args:
        command: the engine's path, or its path and arguments.
        config: the game; its board size and rule are sent (win length must be 5).
        time: the engine's time per move in seconds (``INFO timeout_turn``).
        match_time: the engine's time for a whole game in seconds, 0 for no limit
            (``INFO timeout_match``; ``INFO time_left`` is then sent before each move).
        grace: extra seconds to wait for an answer before the engine counts as silent;
            after a move the engine must also be ready for the next command (answer
            an ABOUT probe) within ``time + grace`` seconds.
        startup: seconds the engine may take to start and answer START.
        max_memory: memory limit in bytes sent to the engine, 0 for none.

    Raises:
        ValueError: bad options, a missing program, or a game the engine cannot play.
        EngineError: the engine refused START, or did not answer START or ABOUT
            (EngineTimeoutError), or exited (EngineExitedError, with its exit code
            and the end of its stderr).

    An engine failure during :meth:`act` raises :class:`EngineError` (its subclasses
    :class:`EngineTimeoutError`, :class:`EngineIllegalMoveError` and
    :class:`EngineExitedError` for a silent engine, an illegal move and a dead engine)
    and stops the process, as does anything that interrupts :meth:`act` (the
    conversation is then out of step); the next :meth:`reset` or :meth:`act` starts a
    fresh one. Use the agent as a context manager, or call :meth:`close`, to end the
    engine.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        config: GameConfig | None = None,
        time: float = 1.0,
        match_time: float = 0.0,
        grace: float = 1.0,
        startup: float = 15.0,
        max_memory: int = 0,
    ) -> None:
        self.command = [command] if isinstance(command, str) else list(command)
        if not self.command or not all(isinstance(part, str) for part in self.command):
            raise TypeError(
                f"command must be a path or a list of strings, got {command!r}"
            )
        self.config = config if config is not None else GameConfig()
        if self.config.win_length != ENGINE_WIN_LENGTH:
            raise ValueError(
                "Gomocup engines play five in a row, "
                f"got win_length={self.config.win_length}"
            )
        self.rule_code = rule_code(self.config.rule.value)
        most = INFO_SECONDS_MAX  # what an INFO line can tell the engine
        self.time = check_number("time", time, above=0, maximum=most)
        self.match_time = check_number(
            "match_time", match_time, minimum=0, maximum=most
        )
        self.grace = check_number("grace", grace, minimum=0)
        self.startup = check_number("startup", startup, above=0)
        self.max_memory = check_number(
            "max_memory", max_memory, minimum=0, maximum=INFO_NUMBER_MAX, integer=True
        )
        self.messages: deque[str] = deque(maxlen=1000)
        """MESSAGE, DEBUG and SUGGEST lines the engine wrote, oldest first."""
        self._process: EngineProcess | None = None
        self._known: np.ndarray | None = None
        self._closed = False
        self._start()

    def reset(self, seed: int | None = None) -> None:
        """Start a new game, restarting the engine if it failed; ``seed`` is unused."""
        self._running()
        self._known = None
        self._time_left = self.match_time

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The engine's move for the position in ``observation``."""
        board = board_from_observation(observation, self.config)
        process = self._running()
        try:
            return self._play(process, board)
        except BaseException:  # an engine error, or an alarm or Ctrl-C mid-conversation
            process.kill()
            raise

    def about(self) -> dict[str, str]:
        """The engine's ABOUT fields (name, version, author, ...), asked at its start."""
        return parse_about(self._running().about or "")

    def close(self) -> None:
        """End the engine process; the agent cannot be used afterwards."""
        self._closed = True
        self._stop()

    def __enter__(self) -> EngineAgent:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _running(self) -> EngineProcess:
        """The engine process, started again if an earlier failure stopped it."""
        if self._closed:
            raise EngineError(f"engine {self.command[0]!r} was closed")
        if self._process is None or not self._process.alive:
            self._stop()
            self._start()
        return self._process

    def _start(self) -> None:
        """Start the engine and set up a game: START, the INFO lines, then ABOUT."""
        process = EngineProcess(
            self.command, self.messages, ready_timeout=self.grace + self.time
        )
        try:
            self._greet(process)
            process.identify(self.startup)
        except BaseException:
            process.close()
            raise
        self._process = process
        self._game_open = False
        self._known = None
        self._time_left = self.match_time

    def _greet(self, process: EngineProcess) -> None:
        size = self.config.board_size
        answer = process.ask(f"START {size}", self.startup)
        if answer.upper() != "OK":
            raise EngineError(
                f"engine {process.name!r} answered START {size} with {answer!r}"
            )
        for key, value in (
            ("timeout_turn", round(self.time * 1000)),
            ("timeout_match", round(self.match_time * 1000)),
            ("max_memory", self.max_memory),
            ("game_type", GAME_TYPE_BRAIN),
            ("rule", self.rule_code),
        ):
            process.send(f"INFO {key} {value}")

    def _stop(self) -> None:
        if self._process is not None:
            self._process.close()

    def _play(self, process: EngineProcess, board: Board) -> int:
        """Bring the engine to ``board``, read its move and check that it is legal."""
        commands = self._commands_for(process, board)
        if self.match_time:
            process.send(f"INFO time_left {round(self._time_left * 1000)}")
        for line in commands:
            process.send(line)
        started = clock.monotonic()
        limit = (
            max(min(self.time, self._time_left), 0.0) if self.match_time else self.time
        )
        answer = process.answer(commands[0], limit + self.grace, move=True)
        self._time_left -= clock.monotonic() - started
        self._game_open = True
        try:
            x, y = parse_numbers(answer, 2, "a point")
        except ProtocolError as error:
            raise EngineError(
                f"engine {process.name!r} answered {commands[0]!r} "
                f"with {answer!r}: {error}"
            ) from None
        try:
            action = point_to_action(x, y, board.size)
        except ProtocolError as error:
            raise EngineIllegalMoveError(
                f"engine {process.name!r} played {answer!r}: {error}"
            ) from None
        if not board.is_legal(action):
            raise EngineIllegalMoveError(
                f"engine {process.name!r} played {answer!r}, "
                "which is not a legal move here"
            )
        board.play(action)
        self._known = board.cells.copy()
        return action

    def _commands_for(self, process: EngineProcess, board: Board) -> list[str]:
        """TURN if the engine saw all but the last move, else RESTART + BEGIN/BOARD."""
        size = board.size
        known = self._known
        if known is not None and board.last_move is not None:
            changed = np.flatnonzero(known != board.cells)
            if (
                changed.size == 1
                and changed[0] == board.last_move
                and known[changed[0]] == EMPTY
            ):
                return [f"TURN {format_point(board.last_move, size)}"]
        if self._game_open:
            self._restart(process)
        if not board.moves:
            return ["BEGIN"]
        own = board.to_move
        stones = [
            f"{format_point(action, size)},"
            f"{OWN_STONE if board.cells[action] == own else OPPONENT_STONE}"
            for action in board.moves
        ]
        return ["BOARD", *stones, "DONE"]

    def _restart(self, process: EngineProcess) -> None:
        """Empty the engine's board: RESTART, or START again for engines without it."""
        self._game_open = False
        try:
            answer = process.ask("RESTART", self.grace + self.time)
        except (EngineTimeoutError, EngineExitedError):
            raise
        except EngineError:
            self._greet(process)
            return
        if answer.upper() != "OK":
            raise EngineError(
                f"engine {process.name!r} answered RESTART with {answer!r}"
            )


def engine_from_spec(
    config: GameConfig, seed: int | None, path: str = "", **options: Any
) -> EngineAgent:
    """An :class:`EngineAgent` from ``"engine:PATH,time=...,grace=..."``; no seed used.

    Args:
        path: the engine's program (a Gomocup ``pbrain-*`` brain).
    """
    if not path:
        raise ValueError(
            "the engine spec needs a path, as in 'engine:/path/to/pbrain-x'"
        )
    return EngineAgent(path, config=config, **options)
