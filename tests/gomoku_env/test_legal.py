"""The one legality rule: the action check, the legal-point kernel (also at an offset
in a batch stored flat), the mask kernel, the masks every caller builds (board, game
state, vector env, search, pattern state) agreeing with it, and the words for an
illegal action."""

from __future__ import annotations

import numpy as np
import pytest

from agents.patterns.pattern_state import BANNED, new_state
from agents.search.expand import candidate_points
from agents.search.position_kernels import candidate_mask
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.errors import IllegalMoveError
from gomoku_env.game_state import GameState
from gomoku_env.kernels import BLACK, EMPTY, WHITE
from gomoku_env.legal import (
    FORBIDDEN,
    OCCUPIED_BY_WHITE,
    OFF_BOARD,
    check_action,
    illegal_code,
    illegal_move_text,
    is_legal_point,
    legal_from_forbidden,
    legal_mask_into,
)
from gomoku_env.notation import parse_moves
from gomoku_env.renju import DOUBLE_THREE, forbidden_codes
from gomoku_env.vector_env import GomokuVectorEnv

RENJU_15 = GameConfig(15, 5, "renju")


@pytest.mark.parametrize(
    "action", [0, 80, np.int64(40), np.int8(3), np.array(5), np.array([4])]
)
def test_check_action_accepts_integers_on_the_board(action: int) -> None:
    result = check_action(action, 81)
    assert result == int(np.asarray(action).item()) and type(result) is int


@pytest.mark.parametrize(
    "action", [True, np.bool_(True), 4.0, "e5", None, np.array([4.0]), np.array([1, 2])]
)
def test_check_action_refuses_other_types(action: object) -> None:
    with pytest.raises(TypeError, match="action must be an int"):
        check_action(action, 81)


@pytest.mark.parametrize("action", [-1, 81, 1000])
def test_check_action_names_an_action_off_the_board(action: int) -> None:
    with pytest.raises(IllegalMoveError, match=f"action {action} is off the 9x9 board"):
        check_action(action, 81)


def random_positions(config: GameConfig, count: int, seed: int) -> list[Board]:
    """Positions of random games (black to move in some, white in others)."""
    rng = np.random.default_rng(seed)
    boards = []
    for _ in range(count):
        board = Board(config)
        for _ in range(int(rng.integers(0, 40))):
            legal = board.legal_actions()
            if board.is_over or legal.size == 0:
                break
            board.play(int(rng.choice(legal)))
        if not board.is_over:
            boards.append(board)
    return boards


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_the_point_and_mask_kernels_agree_with_the_board(rule: str) -> None:
    config = GameConfig(15, 5, rule)
    for board in random_positions(config, 30, seed=3):
        mask = np.zeros(config.cells, dtype=np.int8)
        count = legal_mask_into(board.cells, 15, config.rule.code, board.to_move, mask)
        assert np.array_equal(mask, board.legal_mask()) and count == mask.sum()
        # The same position as the second game of a flat batch.
        batch = np.concatenate([np.ones(config.cells, np.int8), board.cells])
        for action in range(config.cells):
            legal = is_legal_point(
                batch, 15, config.rule.code, action, board.to_move, config.cells
            )
            assert legal == board.is_legal(action) == bool(mask[action])


def kernel_mask(cells: np.ndarray, config: GameConfig, color: int) -> np.ndarray:
    mask = np.zeros(config.cells, dtype=np.int8)
    legal_mask_into(cells, config.board_size, config.rule.code, color, mask)
    return mask


def test_every_callers_mask_agrees_with_the_kernel_on_renju_positions() -> None:
    config = RENJU_15
    rule_code = config.rule.code
    boards = [b for b in random_positions(config, 120, seed=11) if b.to_move == BLACK]
    assert len(boards) >= 50
    for board in boards[:50]:
        expected = kernel_mask(board.cells, config, BLACK)
        game = GameState(config)
        game.reset(board.moves)
        search = np.zeros(config.cells, dtype=np.int8)
        candidate_mask(board.cells, 15, rule_code, BLACK, 0, search)
        points = np.empty(config.cells, dtype=np.int64)
        count = candidate_points(board.cells, 15, rule_code, BLACK, 0, points)
        kept = np.zeros(config.cells, dtype=np.int8)
        legal_from_forbidden(board.cells, forbidden_codes(board.cells, 15), kept)
        state = new_state(board.cells, 15, 5, rule_code)
        pattern = (state.cells == EMPTY) & (state.scores[0] != BANNED)
        assert np.array_equal(board.legal_mask(), expected)
        assert np.array_equal(game.legal_mask(), expected)
        assert np.array_equal(search, expected)
        assert np.array_equal(points[:count], np.flatnonzero(expected))
        assert np.array_equal(kept, expected)
        assert np.array_equal(pattern, expected.astype(bool))


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_the_vector_envs_masks_agree_with_the_kernel(rule: str) -> None:
    env = GomokuVectorEnv(num_envs=8, board_size=15, rule=rule)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    config = env.config
    for _ in range(25):
        masks = env.action_masks()
        for game in range(env.num_envs):
            cells = env.batch.cells[game * config.cells : (game + 1) * config.cells]
            color = BLACK if env.batch.move_count[game] % 2 == 0 else WHITE
            assert np.array_equal(masks[game], kernel_mask(cells, config, color))
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    env.close()


def test_illegal_actions_are_named_the_same_everywhere() -> None:
    board = Board.from_moves(parse_moves("f8 a1 g8 b1 h6 c1 h7 d1", 15), RENJU_15)
    crossing = parse_moves("h8", 15)[0]
    occupied = parse_moves("a1", 15)[0]
    codes = [
        illegal_code(board.cells, 0, 15, action) for action in (225, occupied, crossing)
    ]
    assert codes == [OFF_BOARD, OCCUPIED_BY_WHITE, FORBIDDEN + DOUBLE_THREE]
    assert illegal_move_text(occupied, 15, codes[1]) == (
        f"action {occupied} is occupied by white"
    )
    assert illegal_move_text(crossing, 15, codes[2]) == (
        f"action {crossing} (h8) is forbidden to black under renju: double_three"
    )
    with pytest.raises(IllegalMoveError, match="occupied by white"):
        board.play(occupied)
