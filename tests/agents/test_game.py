"""The one game loop: decided games, forfeits (crash, illegal move, timeout), matches."""

from __future__ import annotations

import doctest
import threading

import numpy as np
import pytest

from agents import RandomAgent
from agents.game import (
    MoveChoice,
    choose_move,
    forfeit_outcome,
    play_game,
)
from agents.training.head_to_head import ForfeitError, MatchScore, play_match
from gomoku_env import Board, GameConfig
from tests.agents.faulty_agents import BadReset, Crashing, Hanging, Occupied, Slow

CONFIG = GameConfig(board_size=7)


class Scripted(RandomAgent):
    """Plays its list of moves, then random ones."""

    def __init__(self, moves):
        super().__init__(seed=0)
        self.moves = list(moves)

    def act(self, observation):
        return self.moves.pop(0) if self.moves else super().act(observation)


def test_a_decided_game_reports_winner_moves_and_counts():
    black = Scripted([0, 1, 2, 3, 4])
    white = Scripted([14, 15, 16, 17])
    outcome = play_game(black, white, CONFIG)
    assert (outcome.winner, outcome.reason, outcome.forfeit) == ("black", "five", None)
    assert outcome.moves == (0, 14, 1, 15, 2, 16, 3, 17, 4)
    assert outcome.move_counts == (5, 4)
    assert all(seconds >= 0 for seconds in outcome.seconds)


def test_the_opening_counts_as_moves_but_not_as_choices():
    opening = (0, 14, 1, 15)
    outcome = play_game(Scripted([2, 3, 4]), Scripted([16, 17]), CONFIG, opening)
    assert outcome.winner == "black"
    assert outcome.moves == (0, 14, 1, 15, 2, 16, 3, 17, 4)
    assert outcome.move_counts == (3, 2)


def test_random_opening_and_seeds_make_games_reproducible():
    def game(seed):
        return play_game(
            RandomAgent(), RandomAgent(), CONFIG,
            seeds=(seed, seed + 1), random_opening=2, opening_seed=seed,
        ).moves  # fmt: skip

    assert game(3) == game(3)
    assert game(3) != game(4)
    assert Board.from_moves(game(3), CONFIG).moves == list(game(3))


@pytest.mark.parametrize(
    ("agent", "reason", "detail"),
    [
        (Crashing(), "crash", "RuntimeError: boom"),
        (Occupied(), "illegal_move", "not a legal action"),
        (Slow(), "timeout", "no move within 0.2 s"),
        (BadReset(), "crash", "reset: KeyError"),
    ],
)
def test_a_faulty_agent_forfeits(agent, reason, detail):
    outcome = play_game(RandomAgent(), agent, CONFIG, (24,), move_time_limit=0.2)
    assert (outcome.winner, outcome.forfeit, outcome.reason) == (
        "black",
        "white",
        reason,
    )
    assert detail in outcome.detail
    assert outcome.moves[0] == 24


def test_the_alarm_interrupts_a_hanging_move():
    # Hanging.act never returns: only the alarm ends this game (else pytest's timeout)
    outcome = play_game(Hanging(), RandomAgent(), CONFIG, move_time_limit=0.1)
    assert (outcome.forfeit, outcome.reason) == ("black", "timeout")


def test_without_the_alarm_a_slow_move_forfeits_after_it_ends():
    outcomes = []
    thread = threading.Thread(
        target=lambda: outcomes.append(
            play_game(Slow(), RandomAgent(), CONFIG, move_time_limit=0.05)
        )
    )
    thread.start()
    thread.join()
    assert (outcomes[0].forfeit, outcomes[0].reason) == ("black", "timeout")
    assert "(limit 0.05 s)" in outcomes[0].detail


def test_choose_move_is_the_per_move_step():
    observation = {"action_mask": np.array([0, 1, 1], dtype=np.int8)}
    assert choose_move(Scripted([2]), observation).action == 2
    illegal = choose_move(Scripted([0]), observation)
    assert isinstance(illegal, MoveChoice)
    assert (illegal.action, illegal.forfeit) == (None, "illegal_move")
    assert choose_move(Scripted([True]), observation).forfeit == "illegal_move"
    assert choose_move(Crashing(), observation).forfeit == "crash"


def test_forfeit_outcome_rejects_unknown_reasons():
    with pytest.raises(ValueError, match="'resign'"):
        forfeit_outcome(0, "resign", "", ())


def test_match_alternates_colours_and_adds_up():
    score = play_match(RandomAgent(), RandomAgent(), CONFIG, games=6, seed=1)
    assert score.games == 6 and score.games_as_black == 3
    assert score.wins_as_black <= score.wins
    halves = play_match(RandomAgent(), RandomAgent(), CONFIG, 2, seed=1) + play_match(
        RandomAgent(), RandomAgent(), CONFIG, 2, seed=2
    )
    assert play_match(RandomAgent(), RandomAgent(), CONFIG, 4, seed=1).wins == (
        halves.wins
    )
    assert MatchScore().score == 0.0


def test_match_raises_on_a_forfeit():
    with pytest.raises(ForfeitError, match="crash: RuntimeError: boom"):
        play_match(RandomAgent(), Crashing(), CONFIG, games=2)


def test_docstring_example_runs():
    import agents.game

    result = doctest.testmod(agents.game)
    assert result.attempted > 0 and result.failed == 0
