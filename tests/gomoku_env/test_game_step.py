"""The one step of every env, :func:`gomoku_env.game_step.play_move`: what one move
does to the cells, the planes and the forbidden points, and that both the game state
and the vector env's kernels run it rather than a step of their own."""

from __future__ import annotations

import inspect

import numpy as np

from gomoku_env import batch_kernels, game_state
from gomoku_env.config import GameConfig
from gomoku_env.game_state import OBSERVERS, GameState
from gomoku_env.game_step import play_move
from gomoku_env.kernels import BLACK, FREESTYLE, RENJU, WHITE
from gomoku_env.notation import parse_moves
from gomoku_env.outcome import FULL, MOVE_LIMIT, NO_LEGAL_MOVE, ONGOING, WON
from gomoku_env.planes import (
    CHANNELS_LAST,
    FORBIDDEN,
    LAST_MOVE,
    OPPONENT_STONES,
    OWN_STONES,
    PLANE_COUNT,
)

SIZE = 9
CELLS = SIZE * SIZE
VIEW = CELLS * PLANE_COUNT


def play_sequence(
    moves: list[int],
    size: int = SIZE,
    rule_code: int = FREESTYLE,
    max_moves: int | None = None,
    forbidden_masked: bool = True,
) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
    """Each move's end code, and the cells, both observers' planes and the
    forbidden flags after the last."""
    cells = np.zeros(size * size, dtype=np.int8)
    planes = np.zeros(2 * size * size * PLANE_COUNT, dtype=np.int8)
    forbidden = np.zeros((1, size * size), dtype=np.int8)
    limit = size * size if max_moves is None else max_moves
    codes = []
    for stones, action in enumerate(moves):
        previous = moves[stones - 1] if stones else -1
        code, _ = play_move(
            cells, 0, size, 5, rule_code, limit, action, stones, previous, planes,
            0, CHANNELS_LAST, size * size * PLANE_COUNT, OBSERVERS, forbidden, 0,
            forbidden_masked,
        )  # fmt: skip
        codes.append(code)
    view = planes.reshape(2, size * size, PLANE_COUNT)
    return codes, cells, view, forbidden[0]


def test_a_move_writes_its_stone_and_marker_into_both_views() -> None:
    codes, cells, planes, _ = play_sequence([40, 41])
    assert codes == [ONGOING, ONGOING]
    assert cells[40] == BLACK and cells[41] == WHITE
    black, white = planes
    assert black[40, OWN_STONES] == 1 and black[41, OPPONENT_STONES] == 1
    assert white[41, OWN_STONES] == 1 and white[40, OPPONENT_STONES] == 1
    # The marker left the first move for the second, in both views.
    assert black[:, LAST_MOVE].nonzero()[0].tolist() == [41]
    assert white[:, LAST_MOVE].nonzero()[0].tolist() == [41]


def test_the_fifth_stone_in_a_row_wins() -> None:
    moves = [0, 9, 1, 10, 2, 11, 3, 12, 4]
    codes, *_ = play_sequence(moves)
    assert codes[:-1] == [ONGOING] * 8
    assert codes[-1] == WON


def test_a_filled_board_and_the_move_limit_end_the_game() -> None:
    # A 3x3 board cannot hold five in a row: its ninth stone fills it.
    codes, *_ = play_sequence(list(range(9)), size=3)
    assert codes == [ONGOING] * 8 + [FULL]
    codes, *_ = play_sequence([40, 41, 42], max_moves=3)
    assert codes == [ONGOING, ONGOING, MOVE_LIMIT]


def test_renju_forbidden_points_reach_the_flags_and_black_view_only() -> None:
    # Black's d5 f5 e4 e6 around e5 (white in the corners): black to move is
    # forbidden some points; the flags must be the board's own renju points.
    config = GameConfig(board_size=SIZE, rule="renju")
    moves = parse_moves("d5 a1 f5 a9 e4 i1 e6 i9", SIZE)
    codes, _, planes, forbidden = play_sequence(moves, rule_code=RENJU)
    assert codes == [ONGOING] * len(moves)
    board_mask = GameState(config, "mask")
    for action in moves:
        board_mask.play(action)
    expected = board_mask.board.forbidden_mask()
    assert expected.sum() > 0, "the position should forbid black a point"
    assert np.array_equal(forbidden, expected)
    assert np.array_equal(planes[0][:, FORBIDDEN], expected)
    assert planes[1][:, FORBIDDEN].sum() == 0


def test_only_forbidden_points_left_is_no_legal_move_when_masked() -> None:
    crowded = parse_moves(
        "c5 e5 a4 f5 d4 d2 b3 c3 a6 c4 b5 d5 b1 b4 e2 c1 e6 d1 c6 c2 f6 e1 a1 f1 a5 "
        "f3 b6 b2 d3 e4 a2 e3 f2 f4",
        6,
    )
    masked, *_ = play_sequence(crowded, size=6, rule_code=RENJU)
    assert masked[-1] == NO_LEGAL_MOVE
    kept, *_ = play_sequence(crowded, size=6, rule_code=RENJU, forbidden_masked=False)
    assert kept[-1] == ONGOING


def test_the_game_state_steps_with_play_move(monkeypatch) -> None:
    calls = []

    def counted(*arguments):
        calls.append(arguments[6])
        return play_move(*arguments)

    monkeypatch.setattr(game_state, "play_move", counted)
    game = GameState(GameConfig(board_size=SIZE))
    for action in (40, 41, 30):
        game.play(action)
    assert calls == [40, 41, 30]


def test_the_vector_kernels_have_no_step_of_their_own() -> None:
    source = inspect.getsource(batch_kernels)
    assert "play_move(" in inspect.getsource(batch_kernels.place)
    for kernel in ("judge_stone(", "write_move(", "forbidden_codes(", "move_end_code("):
        assert kernel not in source, kernel
