"""One game in the browser: the play window's session plus forfeits and the page's view.

:class:`WebGame` keeps the rules of :class:`gomoku_apps.gui.session.GameSession` (undo
back to a person's turn, resignation, swap, records) and adds what a server needs: the
end of a game by an agent's forfeit (a crash, an illegal move, a timeout), a check that
a person's move comes in turn, and the game's state as JSON for the page. It does not
run the agents (:mod:`gomoku_apps.web.room` does); each agent seat holds its
:class:`~gomoku_apps.web.agent_process.AgentProcess`, which the session resets at a
new game as it would an in-process agent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gomoku_apps.gui.session import HUMAN, GameSession, Seat
from gomoku_apps.web.agent_process import AgentProcess
from gomoku_apps.web.requests import ConflictError, GameOptions
from gomoku_env.board import COLOR_NAMES
from gomoku_env.errors import IllegalMoveError
from gomoku_env.kernels import BLACK, WHITE
from gomoku_env.notation import action_to_notation
from gomoku_env.records import GameRecord

# How the forfeiting side lost, after "forfeits by" (the agents.game forfeit reasons).
FORFEIT_WORDS = {
    "crash": "a crash",
    "timeout": "running out of time",
    "illegal_move": "an illegal move",
}

COLORS = {"black": BLACK, "white": WHITE}


@dataclass(frozen=True)
class Forfeit:
    """An agent lost by failing: its colour, the reason (a game-loop forfeit reason)
    and what went wrong."""

    color: str
    reason: str
    detail: str


class WebGame:
    """The state of one game and the commands a person may give; see the module doc."""

    def __init__(
        self,
        game_id: str,
        options: GameOptions,
        agents: dict[str, AgentProcess | None],
    ) -> None:
        self.id = game_id
        self.options = options
        self.delay = options.delay
        self.forfeit: Forfeit | None = None
        seats = [Seat(spec, agents[color]) for color, spec in _players(options)]
        self.session = GameSession(options.config, *seats)
        self._play_opening()

    def _play_opening(self) -> None:
        """The options' opening (checked legal when the request was read)."""
        for action in self.options.opening:
            self.session.play(action)

    @property
    def size(self) -> int:
        return self.options.config.board_size

    @property
    def is_over(self) -> bool:
        return self.forfeit is not None or self.session.is_over

    @property
    def agent_to_move(self) -> AgentProcess | None:
        """The agent process whose turn it is, or None (a person's turn, game over)."""
        return None if self.is_over else self.session.seat_to_move.agent

    def agents(self) -> list[AgentProcess]:
        """The agent processes of both seats."""
        seats = self.session.seats.values()
        return [seat.agent for seat in seats if seat.agent is not None]

    def play(self, action: int, color: str | None = None) -> None:
        """A person's move. ConflictError (nothing changes) for a move out of turn, by
        the wrong colour, or on an occupied or forbidden point, or after the end."""
        session = self.session
        point = action_to_notation(action, self.size)
        if self.is_over:
            raise ConflictError(f"{point}: the game is over")
        to_move = COLOR_NAMES[session.board.to_move]
        if color is not None and color != to_move:
            raise ConflictError(
                f"{point}: out of turn, {to_move} is to move, not {color}"
            )
        if not session.seat_to_move.is_human:
            raise ConflictError(
                f"{point}: out of turn, {to_move} is played by "
                f"{session.seat_to_move.name}"
            )
        try:
            session.play(action)
        except IllegalMoveError as error:
            raise ConflictError(str(error)) from None

    def play_agent_move(self, action: int) -> None:
        """The move an agent chose (checked legal by the game loop's step)."""
        self.session.play(action)

    def end_by_forfeit(self, reason: str, detail: str) -> None:
        """The agent to move failed: it loses the game."""
        color = COLOR_NAMES[self.session.board.to_move]
        self.forfeit = Forfeit(color, reason, detail)
        self.session.generation += 1

    def undo(self) -> None:
        """Back to the person's previous turn; ConflictError if nothing to undo."""
        if self.forfeit is not None:
            raise ConflictError("undo: the game ended by a forfeit; start a new game")
        if not self.session.undo():
            raise ConflictError("undo: nothing to undo (no person's move to take back)")

    def resign(self) -> None:
        """The person to move (or the only person playing) resigns."""
        if not self.session.resign():
            raise ConflictError("resign: no person can resign now")

    def new_game(self) -> None:
        """The same players from the start (the opening, if any)."""
        self.forfeit = None
        self.session.new_game()
        self._play_opening()

    def swap(self) -> None:
        """The players change colours; a new game starts from the opening."""
        self.forfeit = None
        self.session.swap_colors()
        self._play_opening()

    def result(self) -> tuple[str, str]:
        """(result, reason) as in game records."""
        if self.forfeit is not None:
            winner = "white" if self.forfeit.color == "black" else "black"
            return winner, self.forfeit.reason
        return self.session.result()

    def status(self, thinking: bool) -> str:
        """The status line, as in the play window, and a forfeit's cause."""
        forfeit = self.forfeit
        if forfeit is None:
            return self.session.status(thinking)
        loser = self.session.seats[COLORS[forfeit.color]].name
        why = FORFEIT_WORDS.get(forfeit.reason, forfeit.reason)
        winner = self.result()[0]
        return (
            f"{winner.capitalize()} wins: {forfeit.color} ({loser}) forfeits by "
            f"{why}: {forfeit.detail}"
        )

    def record(self, date: str = "") -> GameRecord:
        """The game so far as a record (the format of ``gomoku play --save``)."""
        result, reason = self.result()
        seats = self.session.seats
        return GameRecord.from_board(
            self.session.board,
            seats[BLACK].name,
            seats[WHITE].name,
            result,
            reason,
            date,
        )

    def state(self, thinking: bool) -> dict[str, Any]:
        """The game as the page draws it (JSON-able)."""
        session, board = self.session, self.session.board
        result, reason = self.result()
        seats = session.seats
        return {
            "type": "state",
            "id": self.id,
            "size": self.size,
            "win_length": self.options.config.win_length,
            "rule": self.options.config.rule.value,
            "players": {name: seats[color].name for name, color in COLORS.items()},
            "humans": {name: seats[color].is_human for name, color in COLORS.items()},
            "moves": [action_to_notation(move, self.size) for move in board.moves],
            "to_move": None if self.is_over else COLOR_NAMES[board.to_move],
            "over": self.is_over,
            "result": result,
            "reason": reason,
            "winning_line": [
                action_to_notation(cell, self.size) for cell in board.winning_line()
            ],
            "thinking": thinking,
            "status": self.status(thinking),
            "delay": self.delay,
            "version": session.generation,
        }


def _players(options: GameOptions) -> list[tuple[str, str]]:
    return [("black", options.black), ("white", options.white)]


def is_agent(spec: str) -> bool:
    """Whether a player spec names an agent rather than a person."""
    return spec != HUMAN
