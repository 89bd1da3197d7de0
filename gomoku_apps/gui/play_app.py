"""The play window: people click to move, agents think in the background.

Buttons and keys: Undo [U] back to the person's previous turn, Resign [R], New game [N],
Swap colours [C], Save [S] the game record; Undo and Resign are greyed out while they
would do nothing (always, when no person plays). Escape or Q, or closing the window, quits,
even in the middle of an agent's search.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path

from gomoku_apps.gui.buttons import Button
from gomoku_apps.gui.session import GameSession
from gomoku_apps.gui.thinker import AgentThinker, Answer
from gomoku_apps.gui.window_app import WindowApp
from gomoku_env.board import Board
from gomoku_env.errors import IllegalMoveError
from gomoku_env.render.style import RenderOptions

PLAY_BUTTONS = [
    Button("undo", "Undo", "u"),
    Button("resign", "Resign", "r"),
    Button("new", "New game", "n"),
    Button("swap", "Swap", "c"),
    Button("save", "Save", "s"),
]


class PlayApp(WindowApp):
    """A window to play ``session``; agents' moves come from a background thread.

    Args:
        session: the game and its two seats.
        options: how the board is drawn.
        fps: frames per second of the window.
        save_path: where Save writes the record (and where a finished game is saved
            automatically); None saves to ``gomoku-<time>.txt`` on demand only.
        move_delay: least seconds between an agent being asked and its move appearing,
            so that games between agents can be watched.
    """

    def __init__(
        self,
        session: GameSession,
        options: RenderOptions | None = None,
        fps: float = 30,
        save_path: str | Path | None = None,
        move_delay: float = 0.0,
    ) -> None:
        super().__init__(PLAY_BUTTONS, session.config.board_size, options, fps)
        self.session = session
        self.save_path = Path(save_path) if save_path is not None else None
        self.move_delay = move_delay
        self.thinker = AgentThinker()
        self.message: str | None = None
        self._asked: int | None = None
        self._asked_at = 0.0
        self._answer: Answer | None = None
        self._failed: int | None = None

    @property
    def thinking(self) -> bool:
        """Whether an agent is working on the current position."""
        session = self.session
        return (
            not session.is_over
            and not session.seat_to_move.is_human
            and self._failed != session.generation
        )

    def scene(self) -> tuple[Board, str]:
        status = self.session.status(thinking=self.thinking)
        caption = f"{status}  ·  {self.message}" if self.message else status
        return self.session.board, caption

    def disabled_commands(self) -> frozenset[str]:
        """Undo and Resign when they would do nothing: always, when no person plays."""
        session = self.session
        disabled = {"undo"} if not session.can_undo else set()
        if not session.can_resign:
            disabled.add("resign")
        return frozenset(disabled)

    def click(self, action: int) -> None:
        session = self.session
        if session.is_over or not session.seat_to_move.is_human:
            return
        try:
            session.play(action)
        except IllegalMoveError as error:
            self.message = str(error)
            return
        self._after_move()

    def do(self, command: str) -> None:
        session = self.session
        self.message = None
        if command == "undo" and not session.undo():
            self.message = "nothing to undo"
        elif command == "resign":
            if session.resign():
                self._after_move()
            else:
                self.message = "no person can resign now"
        elif command == "new":
            session.new_game()
        elif command == "swap":
            session.swap_colors()
        elif command == "save":
            self.message = f"saved {self.save()}"

    def save(self) -> Path:
        """Write the game record; returns where it went."""
        now = datetime.now(timezone.utc)
        path = self.save_path or Path(f"gomoku-{now:%Y%m%d-%H%M%S}.txt")
        return self.session.record(date=now.isoformat(timespec="seconds")).save(path)

    def update(self) -> None:
        session = self.session
        if session.is_over or session.seat_to_move.is_human:
            return
        if self._answer is None:
            self._answer = self.thinker.take()
        if self._answer is not None:
            self._use_answer()
        elif self._asked != session.generation and self.thinker.start(
            session.seat_to_move.agent, session.observation(), session.generation
        ):
            self._asked, self._asked_at = session.generation, time.monotonic()

    def _use_answer(self) -> None:
        answer, session = self._answer, self.session
        if answer.ticket == session.generation:
            if time.monotonic() - self._asked_at < self.move_delay:
                return
            self._play_answer(answer)
        self._answer = None

    def _play_answer(self, answer: Answer) -> None:
        choice = answer.choice
        if choice.forfeit is not None:
            name = self.session.seat_to_move.name
            self.message = f"{name} failed: {choice.detail}"
            self._failed = self.session.generation
            return
        self.session.play(choice.action)
        self._after_move()

    def _after_move(self) -> None:
        self.message = None
        if self.session.is_over and self.save_path is not None:
            self.message = f"saved {self.save()}"
