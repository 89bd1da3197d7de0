"""The game behind the play window, without any pygame: seats, moves, undo, resign.

A :class:`GameSession` drives the PettingZoo env (so agents see exactly the
observations they would see in any PettingZoo loop) and adds what a person playing
needs: undo back to the human's previous turn, resignation, a new game, swapping
colours, a status line and a game record. Every change that makes a pending agent
answer stale bumps ``generation``, so the window can drop answers to positions that no
longer exist.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.base import Agent
from gomoku_env.aec_env import AGENTS, raw_env
from gomoku_env.board import COLOR_NAMES, Board
from gomoku_env.config import GameConfig
from gomoku_env.errors import IllegalMoveError
from gomoku_env.kernels import BLACK, WHITE, other_color
from gomoku_env.notation import action_to_notation, result_sentence
from gomoku_env.records import GameRecord

HUMAN = "human"


@dataclass
class Seat:
    """Who plays one colour: a name for the status line and records, and an agent or
    None for a person at the window."""

    name: str
    agent: Agent | None = None

    @property
    def is_human(self) -> bool:
        return self.agent is None


class GameSession:
    """One game at a time between two seats (people or agents) on ``config``."""

    def __init__(self, config: GameConfig, black: Seat, white: Seat) -> None:
        self.config = config
        self.seats = {BLACK: black, WHITE: white}
        self.env = raw_env(config=config)
        self.resigned: int | None = None
        self.generation = 0
        self.new_game()

    @property
    def board(self) -> Board:
        """The current position (read it, do not play on it: use :meth:`play`)."""
        return self.env.board

    @property
    def seat_to_move(self) -> Seat:
        return self.seats[self.board.to_move]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (a five, a full board, or a resignation)."""
        return self.resigned is not None or any(self.env.terminations.values())

    @property
    def has_human(self) -> bool:
        return any(seat.is_human for seat in self.seats.values())

    def observation(self) -> dict[str, np.ndarray]:
        """The PettingZoo observation of the side to move."""
        return self.env.observe(self.env.agent_selection)

    def play(self, action: int) -> None:
        """Play ``action`` for the side to move.

        Raises:
            IllegalMoveError: the game is over or the point is not legal now (occupied,
                or forbidden by the rule); nothing changes.
        """
        notation = action_to_notation(action, self.config.board_size)
        if self.is_over:
            raise IllegalMoveError(f"{notation}: the game is over")
        if not self.observation()["action_mask"][action]:
            reason = self.board.forbidden_reason(action)
            why = (
                f"forbidden to black ({reason})" if reason else "not a legal move here"
            )
            raise IllegalMoveError(f"{notation} is {why}")
        self.env.step(int(action))
        self.generation += 1

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` would change anything: a person plays, and there is a
        move or a resignation to take back."""
        return self.has_human and (self.resigned is not None or bool(self.board.moves))

    @property
    def can_resign(self) -> bool:
        """Whether :meth:`resign` would end the game: it goes on and a person plays."""
        return self.has_human and not self.is_over

    def undo(self) -> bool:
        """Take back moves until a person is to move again; False if nothing to undo."""
        if not self.can_undo:
            return False
        if self.resigned is not None:
            self.resigned = None
            self.generation += 1
            return True
        moves = list(self.board.moves)
        moves.pop()
        while (
            moves and not self.seats[BLACK if len(moves) % 2 == 0 else WHITE].is_human
        ):
            moves.pop()
        self.env.reset(options={"opening": moves})
        self.generation += 1
        return True

    def resign(self) -> bool:
        """The person to move (or the only person playing) resigns; False if none."""
        if not self.can_resign:
            return False
        color = self.board.to_move
        if not self.seats[color].is_human:
            color = other_color(color)
        self.resigned = color
        self.generation += 1
        return True

    def new_game(self) -> None:
        """Start again from the empty board; agents forget the previous game."""
        self.env.reset(options={"opening": []})
        self.resigned = None
        for seat in self.seats.values():
            if seat.agent is not None:
                seat.agent.reset()
        self.generation += 1

    def swap_colors(self) -> None:
        """Exchange the seats' colours and start a new game."""
        self.seats = {BLACK: self.seats[WHITE], WHITE: self.seats[BLACK]}
        self.new_game()

    def result(self) -> tuple[str, str]:
        """(result, reason) as in game records: "black"/"white"/"draw"/"unfinished"."""
        if self.resigned is not None:
            return COLOR_NAMES[other_color(self.resigned)], "resign"
        if not self.is_over:
            return "unfinished", ""
        info = self.env.infos[AGENTS[0]]
        winner = info.get("winner")
        return ("draw" if winner is None else winner), info.get("reason", "")

    def status(self, thinking: bool = False) -> str:
        """The status line, always laid out the same way: "Move 9 · White (mcts)
        thinking…" (or "to move") while the game goes on, then the result and why."""
        result, reason = self.result()
        if result != "unfinished":
            return result_sentence(
                result,
                reason,
                self.seats[BLACK].name,
                self.seats[WHITE].name,
                moves=len(self.board.moves),
                win_length=self.board.config.win_length,
            )
        color = COLOR_NAMES[self.board.to_move].capitalize()
        doing = "thinking…" if thinking else "to move"
        number = len(self.board.moves) + 1
        return f"Move {number} · {color} ({self.seat_to_move.name}) {doing}"

    def record(self, date: str = "") -> GameRecord:
        """The game so far as a :class:`GameRecord`."""
        result, reason = self.result()
        return GameRecord.from_board(
            self.board,
            self.seats[BLACK].name,
            self.seats[WHITE].name,
            result,
            reason,
            date,
        )
