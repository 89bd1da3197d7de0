"""The game flow the three envs share: one action contract and one start rule.

Each bad action gets the same answer from the AEC, Gymnasium and vector envs
(:mod:`gomoku_env.legal`), and no env hands its learner a finished game or reports a
game the learner never moved in (:mod:`gomoku_env.game_start`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gomoku_env import batch_kernels
from gomoku_env.aec_env import env as aec_env
from gomoku_env.aec_env import raw_env
from gomoku_env.batch_state import allocate_batch, moves_of
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.game_start import start_game
from gomoku_env.game_state import GameState
from gomoku_env.gym_env import GomokuEnv
from gomoku_env.openings import centre_area
from gomoku_env.vector_env import GomokuVectorEnv

SIZE = 9
CELLS = SIZE * SIZE


def aec_answer(action: Any) -> tuple[str, int]:
    environment = aec_env(board_size=SIZE)
    environment.reset(seed=0)
    try:
        environment.step(action)
    except TypeError:
        return "TypeError", len(environment.unwrapped.board.moves)
    reason = environment.unwrapped.infos["black_0"].get("reason", "played")
    return reason, len(environment.unwrapped.board.moves)


def gym_answer(action: Any) -> tuple[str, int]:
    environment = GomokuEnv(board_size=SIZE, opponent="random")
    environment.reset(seed=0)
    try:
        *_, info = environment.step(action)
    except TypeError:
        return "TypeError", len(environment.board.moves)
    # The opponent's reply follows a played move: count the learner's stone only.
    return info.get("reason", "played"), len(environment.board.moves) // 2 * 2 - 1


def vector_answer(action: Any) -> tuple[str, int]:
    environment = GomokuVectorEnv(1, board_size=SIZE, opponent="random")
    environment.reset(seed=0)
    try:
        *_, info = environment.step([action])
    except TypeError:
        return "TypeError", int(environment.batch.move_count[0])
    if "reason" in info:
        return str(info["reason"][0]), 1
    return "played", int(environment.batch.move_count[0]) - 1


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (3.7, ("TypeError", 0)),
        (True, ("TypeError", 0)),
        ("a", ("TypeError", 0)),
        (np.array(5), ("played", 1)),
        (np.int64(5), ("played", 1)),
        (-1, ("illegal_move", 0)),
        (CELLS, ("illegal_move", 0)),
    ],
)
def test_the_three_envs_answer_a_bad_action_alike(action: Any, expected: tuple) -> None:
    reason, _ = expected
    assert aec_answer(action)[0] == reason
    assert gym_answer(action)[0] == reason
    assert vector_answer(action)[0] == reason


@pytest.mark.parametrize("action", [np.array(5), np.int64(5)])
def test_an_integer_scalar_is_played_on_its_point(action: Any) -> None:
    environment = aec_env(board_size=SIZE)
    environment.reset(seed=0)
    environment.step(action)
    assert environment.unwrapped.board.moves == [5]
    gym = GomokuEnv(board_size=SIZE, opponent="random")
    gym.reset(seed=0)
    gym.step(action)
    assert gym.board.moves[0] == 5
    vector = GomokuVectorEnv(1, board_size=SIZE, opponent="random")
    vector.reset(seed=0)
    vector.step([action])
    assert vector.batch.cells[5] != 0


def test_a_type_error_leaves_every_env_unchanged() -> None:
    vector = GomokuVectorEnv(2, board_size=SIZE)
    vector.reset(seed=0)
    before = vector.batch.cells.copy()
    with pytest.raises(TypeError, match="game 1: action must be an int, got True"):
        vector.step([3, True])
    assert np.array_equal(vector.batch.cells, before)
    gym = GomokuEnv(board_size=SIZE)
    gym.reset(seed=0)
    with pytest.raises(TypeError, match=r"got 3\.7"):
        gym.step(3.7)
    assert gym.board.moves == [] and gym.action_masks().all()


def winning_reply(planes: np.ndarray, mask: np.ndarray) -> int:
    """An opponent that completes its own line when it can, else the first legal
    point: its first reply after a random opening often wins."""
    size = planes.shape[0]
    own = np.flatnonzero(planes[..., 0].ravel())
    other = np.flatnonzero(planes[..., 1].ravel())
    black = bool(planes[0, 0, 3])
    blacks, whites = (own, other) if black else (other, own)
    stones: list[int] = []
    for index in range(max(len(blacks), len(whites))):
        stones += [int(b) for b in blacks[index : index + 1]]
        stones += [int(w) for w in whites[index : index + 1]]
    board = Board.with_stones(stones, GameConfig(size, 3))
    for action in np.flatnonzero(mask):
        board.play(int(action))
        won = board.winner != 0
        board.undo()
        if won:
            return int(action)
    return int(np.flatnonzero(mask)[0])


def test_gym_reset_never_returns_a_finished_episode() -> None:
    environment = GomokuEnv(
        opponent=winning_reply,
        board_size=5,
        win_length=3,
        random_opening=4,
        play_as="white",
    )
    for seed in range(60):
        _, info = environment.reset(seed=seed)
        assert info["action_mask"].any(), seed
        assert "reason" not in info and not environment.game.over


@pytest.mark.parametrize("opponent", ["random", winning_reply])
def test_vector_env_reports_only_games_the_learner_moved_in(opponent: Any) -> None:
    """Learner white after four opening stones: the opponent (black) replies first.
    A first reply that wins is drawn again; every reported game has the learner's
    reward by its winner, never the next game's."""
    games = 16
    environment = GomokuVectorEnv(
        games,
        opponent=opponent,
        board_size=5,
        win_length=3,
        random_opening=4,
        play_as="white",
    )
    environment.reset(seed=3)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        masks = environment.action_masks()
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        _, rewards, terminated, truncated, info = environment.step(actions)
        ended = terminated | truncated
        finished += int(ended.sum())
        for game in np.flatnonzero(ended):
            # 4 opening stones, the opponent's reply, then the learner's move.
            assert info["moves"][game] >= 6
            expected = {"white": 1.0, "black": -1.0, None: 0.0}[info["winner"][game]]
            assert rewards[game] == expected
    assert finished > 20


def test_an_opening_that_cannot_start_a_game_is_a_value_error() -> None:
    filled = [0, 1, 2, 3, 5, 4, 6, 7, 8, 9, 11, 10, 12]
    with pytest.raises(ValueError, match="no game to play: 1000 starts") as caught:
        raw_env(board_size=5, opening=filled, random_opening=12)
    assert "random_opening=12" in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_one_start_function_draws_the_same_start_for_every_env(rule: str) -> None:
    """The AEC env's start (a batch of one game, replayed on its GameState) and a vector
    env game seeded with the same generator state place the same stones in the same
    order: one function starts both."""
    for seed in range(20):
        game = GameState(GameConfig(15, rule=rule))
        start_game(game, np.random.default_rng(seed), (112, 113), random_stones=6)
        vector = GomokuVectorEnv(1, board_size=15, rule=rule, random_opening=6)
        vector.batch = allocate_batch(
            1, vector.config, False, 6, 1, None, opening=(112, 113)
        )
        state = np.random.default_rng(seed).bit_generator.random_raw()
        vector.batch.rng_state[0] = state
        batch_kernels.reset_games(vector.batch, vector.out, True)
        assert moves_of(vector.batch, 0) == game.board.moves, seed
        assert game.board.moves[:2] == [112, 113] and len(game.board.moves) == 8
        assert np.array_equal(vector.batch.cells, game.board.cells)


def test_a_start_that_finds_no_free_point_near_the_centre_is_a_value_error() -> None:
    """A fixed opening that fills the centre area leaves the random stones no point:
    a one-line ValueError, not a search that never ends."""
    config = GameConfig(7)
    board = Board(config)
    for point in centre_area(7)[:18]:
        board.play(int(point))
        if board.is_over:
            board.undo()
    free = int((board.cells[centre_area(7)] == 0).sum())
    with pytest.raises(ValueError, match="found no free point near the centre"):
        raw_env(board_size=7, opening=board.moves, random_opening=free + 1)
    environment = raw_env(board_size=7, opening=board.moves, random_opening=1)
    environment.reset(seed=0)
    assert len(environment.unwrapped.board.moves) == len(board.moves) + 1


def test_every_env_plays_the_fixed_opening_first() -> None:
    """The three envs take ``opening``: its stones come first, then the random ones."""
    opening = [40, 49]
    aec = raw_env(board_size=SIZE, opening=opening, random_opening=1)
    aec.reset(seed=0)
    assert aec.board.moves[:2] == [40, 49] and len(aec.board.moves) == 3
    gym = GomokuEnv(board_size=SIZE, opening=opening, random_opening=1, play_as="white")
    gym.reset(seed=0)
    # Three opening stones leave white to move: the learner's turn, no reply first.
    assert gym.board.moves[:2] == [40, 49] and len(gym.board.moves) == 3
    vector = GomokuVectorEnv(3, board_size=SIZE, opening=opening, random_opening=1)
    vector.reset(seed=0)
    for game in range(3):
        moves = moves_of(vector.batch, game)
        # Black learner, white to move after three stones: the random reply follows.
        assert moves[:2] == [40, 49] and len(moves) == 4
    with pytest.raises(ValueError, match="opening move 2"):
        GomokuVectorEnv(1, board_size=SIZE, opening=[40, 40])
