"""Property tests: the incremental rules agree with an independent full-board oracle."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gomoku_env import BLACK, EMPTY, WHITE, Board, GameConfig
from gomoku_env.board import (
    SYMMETRY_COUNT,
    symmetry_permutations,
    transform_action,
    transform_cells,
    transform_planes,
)
from gomoku_env.planes import ObservationPlanes, board_from_observation
from tests.oracle import has_winning_line


@st.composite
def configs(draw: st.DrawFn) -> GameConfig:
    size = draw(st.integers(5, 9))
    win_length = draw(st.integers(3, min(size, 6)))
    rule = draw(st.sampled_from(["freestyle", "standard"]))
    return GameConfig(size, win_length, rule)


@st.composite
def games(draw: st.DrawFn) -> Board:
    """A game played with random legal moves until it ends or the draws run out."""
    config = draw(configs())
    choices = draw(st.lists(st.integers(0, 10**6), max_size=config.cells))
    board = Board(config)
    for choice in choices:
        if board.is_over:
            break
        legal = board.legal_actions()
        board.play(int(legal[choice % legal.size]))
    return board


def oracle_winner(board: Board) -> int:
    """The colour with a winning line on the whole board, scanned from scratch."""
    config = board.config
    exact = config.rule.value == "standard"
    for color in (BLACK, WHITE):
        if has_winning_line(board.cells, board.size, config.win_length, color, exact):
            return color
    return EMPTY


@settings(max_examples=150, deadline=None)
@given(games())
def test_incremental_result_matches_full_board_scan(final: Board) -> None:
    replay = Board(final.config)
    for action in final.moves:
        replay.play(action)
        assert replay.winner == oracle_winner(replay)
    assert replay == final


def two_line_win() -> Board:
    """White's last stone (cell 4) completes a row and a column of three at once."""
    board = Board(GameConfig(board_size=6, win_length=3))
    for action in (5, 0, 1, 10, 6, 2, 17, 16, 7, 3, 9, 4):
        board.play(action)
    return board


@settings(max_examples=100, deadline=None)
@given(games(), st.integers(0, SYMMETRY_COUNT - 1))
@example(two_line_win(), 1)
def test_results_are_invariant_under_symmetries(board: Board, symmetry: int) -> None:
    image = board.transformed(symmetry)
    assert image.winner == board.winner
    assert image.is_draw == board.is_draw
    # A last move that makes two lines at once wins along both, and the line reported
    # is the first in a fixed order of directions, which a symmetry can reorder: so
    # the image of the board's line and the image's own line must each be a winning
    # line of the image (the winner's stones, through its last move), not the same one.
    mapped = [transform_action(a, board.size, symmetry) for a in board.winning_line()]
    line = list(image.winning_line())
    won = board.winner != EMPTY and board.forbidden_loss is None
    assert bool(line) == bool(mapped) == won
    for cells in (line, mapped):
        if cells:
            assert len(cells) >= board.config.win_length
            assert image.moves[-1] in cells
            assert all(image.cells[cell] == image.winner for cell in cells)
    assert np.array_equal(
        transform_cells(board.cells, board.size, symmetry)[
            np.array(
                [
                    transform_action(a, board.size, symmetry)
                    for a in range(board.size**2)
                ]
            )
        ],
        board.cells,
    )


@settings(max_examples=100, deadline=None)
@given(games())
def test_undo_restores_the_exact_previous_state(board: Board) -> None:
    history = []
    replay = Board(board.config)
    for action in board.moves:
        history.append(replay.copy())
        replay.play(action)
    for previous in reversed(history):
        replay.undo()
        assert replay == previous
        assert np.array_equal(replay.legal_mask(), previous.legal_mask())


@settings(max_examples=60, deadline=None)
@given(games())
def test_position_rebuilt_from_an_observation_has_the_same_stones(board: Board) -> None:
    if board.is_over:
        board.undo()
    observation = {
        "observation": ObservationPlanes.from_board(board).view(board.to_move)
    }
    rebuilt = board_from_observation(observation, board.config)
    assert np.array_equal(rebuilt.cells, board.cells)
    assert rebuilt.to_move == board.to_move
    assert rebuilt.last_move == board.last_move
    assert np.array_equal(rebuilt.legal_mask(), board.legal_mask())


def test_symmetry_permutations_form_the_dihedral_group() -> None:
    permutations = symmetry_permutations(7)
    assert len({tuple(p) for p in permutations}) == SYMMETRY_COUNT
    for permutation in permutations:
        assert sorted(permutation) == list(range(49))
    planes = np.arange(7 * 7 * 2).reshape(7, 7, 2)
    rotated = transform_planes(planes, 1)
    assert np.array_equal(rotated[:, :, 0], np.rot90(planes[:, :, 0]))
