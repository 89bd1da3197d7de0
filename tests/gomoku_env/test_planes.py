"""The planes kernels against the documented layout, the env's incremental planes and
each other (cells -> planes -> cells)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gomoku_env import BLACK, WHITE, Board, GameConfig, Rule
from gomoku_env.planes import (
    CHANNELS_LAST,
    PLANE_COUNT,
    ObservationPlanes,
    read_cells,
    write_forbidden,
    write_planes,
)
from tests.oracle import observation_planes


@st.composite
def positions(draw: st.DrawFn) -> Board:
    """A game near the centre of 15x15 under any rule, not over."""
    rule = draw(st.sampled_from(list(Rule)))
    board = Board(GameConfig(board_size=15, rule=rule))
    rng = np.random.default_rng(draw(st.integers(0, 10**6)))
    centre = np.array([row * 15 + col for row in range(4, 11) for col in range(4, 11)])
    for _ in range(draw(st.integers(0, 60))):
        free = centre[board.legal_mask()[centre] == 1]
        if free.size == 0 or board.is_over:
            break
        board.play(int(rng.choice(free)))
    if board.is_over:
        board.undo()
    return board


def incremental_planes(board: Board) -> ObservationPlanes:
    """The env's planes, kept move by move as the env keeps them."""
    planes = ObservationPlanes(board.size)
    previous = None
    for index, action in enumerate(board.moves):
        planes.place(action, BLACK if index % 2 == 0 else WHITE, previous)
        previous = action
    write_forbidden(planes.flat, 0, CHANNELS_LAST, board.forbidden_mask())
    return planes


@settings(max_examples=40, deadline=None)
@given(positions())
def test_written_planes_match_the_layout_and_the_envs_planes(board: Board) -> None:
    last = -1 if board.last_move is None else board.last_move
    forbidden = board.forbidden_mask()
    out = np.empty((15, 15, PLANE_COUNT), dtype=np.int8)
    write_planes(board.cells, 15, board.to_move, last, board.legal_mask(), out)
    expected = observation_planes(board.cells, 15, board.to_move, last, forbidden)
    np.testing.assert_array_equal(out, expected)
    kept = incremental_planes(board)
    np.testing.assert_array_equal(out, kept.view(board.to_move))
    np.testing.assert_array_equal(
        ObservationPlanes.from_board(board).planes, kept.planes
    )


@settings(max_examples=40, deadline=None)
@given(positions())
def test_read_cells_gives_back_the_stones_and_the_side_to_move(board: Board) -> None:
    view = ObservationPlanes.from_board(board).view(board.to_move)
    cells = np.full(225, 7, dtype=np.int8)
    assert read_cells(view, cells) == board.to_move
    np.testing.assert_array_equal(cells, board.cells)
