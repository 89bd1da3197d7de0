"""The play window's game logic, without a window: undo, resign, new game, swap."""

import pytest

from agents import RandomAgent
from gomoku_apps.gui.session import GameSession, Seat
from gomoku_env import GameConfig, IllegalMoveError
from gomoku_env.kernels import BLACK, WHITE
from gomoku_env.notation import parse_moves


def human_vs_agent(size=9):
    return GameSession(
        GameConfig(size), Seat("human"), Seat("random", RandomAgent(seed=1))
    )


def play_agent_move(session):
    session.play(session.seat_to_move.agent.act(session.observation()))


def test_undo_goes_back_to_the_humans_previous_turn():
    session = human_vs_agent()
    session.play(40)
    play_agent_move(session)
    session.play(30)
    play_agent_move(session)
    assert len(session.board.moves) == 4
    assert session.undo()
    assert session.board.moves[:1] == [40] and len(session.board.moves) == 2
    assert session.seat_to_move.is_human
    session.play(31)
    assert session.undo()
    assert len(session.board.moves) == 2
    assert session.undo() and session.board.moves == []
    assert not session.undo()


def test_undo_after_losing_to_a_five_returns_to_the_human():
    session = GameSession(
        GameConfig(9), Seat("random", RandomAgent(seed=2)), Seat("human")
    )
    for black, white in zip([0, 1, 2, 3], [80, 79, 78, 77], strict=True):
        session.play(black)
        session.play(white)
    session.play(4)
    assert session.is_over and session.result() == ("black", "five")
    assert "Black (random) wins by five in a row" in session.status()
    assert session.undo()
    assert not session.is_over and session.seat_to_move.is_human
    assert len(session.board.moves) == 7


def test_resign_ends_the_game_for_the_human_and_undo_takes_it_back():
    session = human_vs_agent()
    session.play(40)
    assert session.resign()
    assert session.is_over and session.result() == ("white", "resign")
    assert session.status() == "White (random) wins by resignation after 1 move"
    with pytest.raises(IllegalMoveError, match="over"):
        session.play(41)
    assert not session.resign()
    assert session.undo() and not session.is_over


def test_illegal_points_are_refused_without_changing_anything():
    session = human_vs_agent()
    session.play(40)
    generation = session.generation
    with pytest.raises(IllegalMoveError, match="e5 is not a legal move"):
        session.play(40)
    assert session.board.moves == [40] and session.generation == generation


def test_swap_and_new_game_start_from_the_empty_board():
    session = human_vs_agent()
    session.play(40)
    session.swap_colors()
    assert session.board.moves == []
    assert session.seats[WHITE].is_human and not session.seats[BLACK].is_human
    play_agent_move(session)
    session.new_game()
    assert session.board.moves == []
    assert session.status() == "Move 1 · Black (random) to move"


def test_agents_alone_cannot_undo_or_resign():
    session = GameSession(
        GameConfig(9), Seat("a", RandomAgent(seed=1)), Seat("b", RandomAgent(seed=2))
    )
    play_agent_move(session)
    assert not session.undo() and not session.resign()


def test_record_of_a_resigned_game_round_trips():
    session = human_vs_agent()
    session.play(40)
    play_agent_move(session)
    session.resign()
    record = session.record()
    assert (record.black, record.white, record.result, record.reason) == (
        "human",
        "random",
        "white",
        "resign",
    )
    assert list(record.moves) == session.board.moves


def test_the_play_window_refuses_a_forbidden_point_and_says_why() -> None:
    # Black h8 h9 i10 j10: h10 is a double three for black, who is to move.
    session = GameSession(GameConfig(rule="renju"), Seat("ann"), Seat("bob"))
    for action in parse_moves("h8 a1 h9 a3 i10 a5 j10 o1", 15):
        session.play(action)
    with pytest.raises(IllegalMoveError, match=r"h10 is forbidden to black \(double_"):
        session.play(parse_moves("h10", 15)[0])
    assert len(session.board.moves) == 8 and not session.is_over
