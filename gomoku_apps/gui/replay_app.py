"""The replay window: step through a saved game with buttons or the arrow keys."""

from __future__ import annotations

from gomoku_apps.gui.buttons import Button
from gomoku_apps.gui.window_app import WindowApp
from gomoku_env.board import Board
from gomoku_env.notation import action_to_notation, result_sentence
from gomoku_env.records import GameRecord
from gomoku_env.render.style import RenderOptions

REPLAY_BUTTONS = [
    Button("first", "First", "home"),
    Button("previous", "Back", "left"),
    Button("next", "Next", "right"),
    Button("last", "Last", "end"),
]


class ReplayApp(WindowApp):
    """A window showing ``record`` after ``position`` moves, from 0 to all of them."""

    def __init__(
        self,
        record: GameRecord,
        options: RenderOptions | None = None,
        fps: float = 30,
        start: int = 0,
    ) -> None:
        super().__init__(
            REPLAY_BUTTONS, record.config.board_size, options, fps, "Gomoku replay"
        )
        if not 0 <= start <= len(record.moves):
            raise ValueError(f"start must be in 0..{len(record.moves)}, got {start!r}")
        self.record = record
        self.position = start
        self._board = record.board(start)

    def do(self, command: str) -> None:
        last = len(self.record.moves)
        targets = {
            "first": 0,
            "previous": max(0, self.position - 1),
            "next": min(last, self.position + 1),
            "last": last,
        }
        if targets[command] != self.position:
            self.position = targets[command]
            self._board = self.record.board(self.position)

    def disabled_commands(self) -> frozenset[str]:
        """First and Back at the start, Next and Last at the end."""
        disabled = set()
        if self.position == 0:
            disabled |= {"first", "previous"}
        if self.position == len(self.record.moves):
            disabled |= {"next", "last"}
        return frozenset(disabled)

    def scene(self) -> tuple[Board, str]:
        record, board = self.record, self._board
        total = len(record.moves)
        if self.position == 0:
            players = f"Black ({record.black}) vs White ({record.white})"
            return board, f"Start of {total} moves · {players}"
        point = action_to_notation(record.moves[self.position - 1], board.size)
        text = f"Move {self.position}/{total}: {point}"
        if self.position == total and record.result != "unfinished":
            text += " · " + result_sentence(
                record.result,
                record.reason,
                record.black,
                record.white,
                win_length=record.config.win_length,
            )
        return board, text
