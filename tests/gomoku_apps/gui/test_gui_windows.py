"""Scripted sessions in the play and replay windows: posted mouse and key events."""

import threading
import time

import pygame
import pytest

from agents import RandomAgent
from gomoku_apps.gui.play_app import PlayApp
from gomoku_apps.gui.replay_app import ReplayApp
from gomoku_apps.gui.session import GameSession, Seat
from gomoku_apps.gui.thinker import AgentThinker
from gomoku_env import Board, GameConfig
from gomoku_env.records import GameRecord


def click(position):
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=position, button=1)
    )


def press(key):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))


def run_until(app, condition, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the window never got there"
        assert app.frame()
        time.sleep(0.001)


@pytest.fixture
def play_app(tmp_path):
    session = GameSession(
        GameConfig(9), Seat("human"), Seat("random", RandomAgent(seed=3))
    )
    app = PlayApp(session, fps=1000, save_path=tmp_path / "game.txt")
    app.frame()
    yield app
    app.close()


def test_scripted_session_plays_undoes_resigns_and_starts_again(play_app, tmp_path):
    session = play_app.session
    click(play_app.point_position(40))
    run_until(play_app, lambda: len(session.board.moves) == 2)
    assert session.board.moves[0] == 40 and session.seat_to_move.is_human
    click(play_app.point_position(session.board.moves[1]))
    play_app.frame()
    assert "not a legal move" in play_app.scene()[1]
    press(pygame.K_u)
    play_app.frame()
    assert session.board.moves == []
    click(play_app.point_position(30))
    run_until(play_app, lambda: len(session.board.moves) == 2)
    click(play_app.button_position("resign"))
    play_app.frame()
    assert session.result() == ("white", "resign")
    assert "wins by resignation" in play_app.scene()[1]
    assert GameRecord.load(tmp_path / "game.txt").result == "white"
    click(play_app.button_position("new"))
    play_app.frame()
    assert session.board.moves == [] and not session.is_over


def test_swap_key_lets_the_agent_open(play_app):
    press(pygame.K_c)
    run_until(play_app, lambda: len(play_app.session.board.moves) == 1)
    assert play_app.session.seats[2].is_human


def test_save_button_writes_the_record(play_app, tmp_path):
    click(play_app.point_position(40))
    run_until(play_app, lambda: len(play_app.session.board.moves) == 2)
    click(play_app.button_position("save"))
    play_app.frame()
    assert GameRecord.load(tmp_path / "game.txt").moves[0] == 40
    assert "saved" in play_app.scene()[1]


class StuckAgent:
    """Thinks until released: a search that is still running when the window closes."""

    def __init__(self):
        self.started = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()

    def reset(self, seed=None):
        pass

    def act(self, observation):
        self.started.set()
        self.release.wait(30)
        self.finished.set()
        return 0


def test_window_stays_responsive_and_closes_during_a_search():
    agent = StuckAgent()
    session = GameSession(GameConfig(9), Seat("stuck", agent), Seat("human"))
    app = PlayApp(session, fps=1000)
    try:
        run_until(app, agent.started.is_set)
        for _ in range(5):
            assert app.frame()
        assert "thinking…" in app.scene()[1]
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        app.run()
        assert not agent.finished.is_set()  # it closed without waiting for the search
        assert not app.running
        assert pygame.display.get_surface() is None
    finally:
        agent.release.set()
        app.close()


def test_the_thinker_can_be_waited_for_before_exiting():
    agent = StuckAgent()
    thinker = AgentThinker()
    assert thinker.wait(0)
    assert thinker.start(
        agent,
        GameSession(GameConfig(9), Seat("stuck", agent), Seat("human")).observation(),
        ticket=0,
    )
    agent.started.wait(30)
    assert not thinker.wait(0.01)
    agent.release.set()
    assert thinker.wait(30)


def test_agent_errors_are_shown_not_raised():
    class Broken(StuckAgent):
        def act(self, observation):
            raise RuntimeError("out of ideas")

    app = PlayApp(
        GameSession(GameConfig(9), Seat("broken", Broken()), Seat("human")), fps=1000
    )
    run_until(app, lambda: app.message is not None)
    assert "broken failed: RuntimeError: out of ideas" in app.scene()[1]
    assert "thinking" not in app.scene()[1]
    app.close()


def test_agents_play_each_other_to_the_end_through_the_game_loop(tmp_path):
    session = GameSession(
        GameConfig(7),
        Seat("first", RandomAgent(seed=1)),
        Seat("second", RandomAgent(seed=2)),
    )
    app = PlayApp(session, fps=1000, save_path=tmp_path / "game.txt")
    try:
        run_until(app, lambda: session.is_over, seconds=20)
        assert "wins by" in app.scene()[1] or "Draw" in app.scene()[1]
        assert GameRecord.load(tmp_path / "game.txt").moves == tuple(
            session.board.moves
        )
    finally:
        app.close()


def test_an_agent_answering_an_illegal_move_forfeits_its_turn():
    class Occupied(StuckAgent):
        def act(self, observation):
            return int(observation["action_mask"].argmin())

    session = GameSession(GameConfig(9), Seat("human"), Seat("stubborn", Occupied()))
    session.play(0)
    app = PlayApp(session, fps=1000)
    try:
        run_until(app, lambda: app.message is not None)
        assert "stubborn failed: returned" in app.scene()[1]
        assert "not a legal action" in app.scene()[1]
        assert session.board.moves == [0]
    finally:
        app.close()


def test_replay_steps_with_keys_and_buttons():
    moves = [40, 41, 30, 31, 20]
    record = GameRecord.from_board(Board.from_moves(moves, GameConfig(9)), "a", "b")
    app = ReplayApp(record, fps=1000)
    app.frame()
    assert app.scene()[0].moves == []
    press(pygame.K_RIGHT)
    press(pygame.K_RIGHT)
    app.frame()
    assert app.scene()[0].moves == [40, 41] and "Move 2/5: f5" in app.scene()[1]
    press(pygame.K_LEFT)
    app.frame()
    assert app.position == 1
    click(app.button_position("last"))
    app.frame()
    assert app.scene()[0].moves == moves
    click(app.button_position("first"))
    press(pygame.K_ESCAPE)
    assert not app.frame()
    assert app.position == 0
    app.close()
