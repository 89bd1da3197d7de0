"""What the windows show: greyed-out buttons, one label style, a fixed status layout."""

import pygame
import pytest

from agents import RandomAgent
from gomoku_apps.gui.buttons import button_colors
from gomoku_apps.gui.play_app import PLAY_BUTTONS, PlayApp
from gomoku_apps.gui.replay_app import REPLAY_BUTTONS, ReplayApp
from gomoku_apps.gui.session import GameSession, Seat
from gomoku_env import Board, GameConfig
from gomoku_env.records import GameRecord
from gomoku_env.render.style import DEFAULT_THEME


def agents_only():
    return GameSession(
        GameConfig(9),
        Seat("random", RandomAgent(seed=1)),
        Seat("mcts", RandomAgent(seed=2)),
    )


def button_fill(app, command):
    """The colour drawn at the left end of ``command``'s button, away from its text."""
    app.frame()
    rect = app.bar.rects[[button.command for button in app.bar.buttons].index(command)]
    surface = pygame.display.get_surface()
    return tuple(surface.get_at((rect.left + 4, rect.centery)))[:3]


@pytest.fixture
def window():
    apps = []
    yield apps.append
    for app in apps:
        app.close()


def test_undo_and_resign_are_drawn_disabled_when_no_person_plays(window):
    app = PlayApp(agents_only(), fps=1000)
    window(app)
    assert app.disabled_commands() == {"undo", "resign"}
    disabled_fill, _ = button_colors(True, DEFAULT_THEME)
    enabled_fill, _ = button_colors(False, DEFAULT_THEME)
    assert disabled_fill != enabled_fill
    assert button_fill(app, "undo") == disabled_fill
    assert button_fill(app, "resign") == disabled_fill
    assert button_fill(app, "new") == enabled_fill


def test_a_person_gets_undo_once_there_is_a_move_and_resign_while_playing(window):
    session = GameSession(GameConfig(9), Seat("human"), Seat("human"))
    app = PlayApp(session, fps=1000)
    window(app)
    assert app.disabled_commands() == {"undo"}
    session.play(40)
    assert app.disabled_commands() == frozenset()
    assert session.resign()
    assert app.disabled_commands() == {"resign"}
    assert button_fill(app, "resign") == DEFAULT_THEME.button_disabled
    assert button_fill(app, "undo") == DEFAULT_THEME.button


def test_disabled_buttons_change_nothing():
    session = agents_only()
    assert not session.can_undo and not session.can_resign
    assert not session.undo() and not session.resign()
    assert session.board.moves == [] and not session.is_over


def test_play_and_replay_buttons_share_one_label_style():
    assert [button.caption for button in PLAY_BUTTONS] == [
        "Undo [U]",
        "Resign [R]",
        "New game [N]",
        "Swap [C]",
        "Save [S]",
    ]
    assert [button.caption for button in REPLAY_BUTTONS] == [
        "First [Home]",
        "Back [Left]",
        "Next [Right]",
        "Last [End]",
    ]


def test_status_line_has_one_layout_while_moving_and_thinking():
    session = GameSession(
        GameConfig(9), Seat("human"), Seat("mcts", RandomAgent(seed=2))
    )
    session.play(40)
    assert session.status() == "Move 2 · White (mcts) to move"
    assert session.status(thinking=True) == "Move 2 · White (mcts) thinking…"


def test_replay_greys_out_the_ends_and_words_the_result_as_play_does(window):
    board = Board.from_moves([0, 9, 1, 10, 2, 11, 3, 12, 4], GameConfig(9))
    record = GameRecord.from_board(board, "alphabeta", "heuristic")
    app = ReplayApp(record, fps=1000)
    window(app)
    assert app.disabled_commands() == {"first", "previous"}
    assert app.scene()[1] == (
        "Start of 9 moves · Black (alphabeta) vs White (heuristic)"
    )
    app.do("next")
    assert app.disabled_commands() == frozenset()
    app.do("last")
    assert app.disabled_commands() == {"next", "last"}
    assert app.scene()[1] == ("Move 9/9: e9 · Black (alphabeta) wins by five in a row")
    assert button_fill(app, "last") == DEFAULT_THEME.button_disabled
    resigned = GameRecord.from_board(
        Board.from_moves([40, 41], GameConfig(9)), "a", "b", "black", "resign"
    )
    replay = ReplayApp(resigned, fps=1000, start=2)
    window(replay)
    assert replay.scene()[1].endswith("Black (a) wins by resignation")
