"""rgb_array pictures: stones, marks and overlays land on the pixels they should."""

import numpy as np
import pytest

from gomoku_env import Board, GameConfig
from gomoku_env.render import Overlay, RenderOptions, render_board
from gomoku_env.render.geometry import BoardGeometry


def pixel(image, point):
    x, y = point
    return image[round(y), round(x)].astype(int)


def is_red(color):
    return color[0] > 170 and color[1] < 90 and color[2] < 90


def board_of(size, moves, win_length=5):
    return Board.from_moves(moves, GameConfig(size, min(win_length, size)))


@pytest.mark.parametrize("size", [5, 9, 15, 19, 25])
def test_stones_appear_at_their_points(size):
    black_stone, white_stone = 0, size * size - 1
    board = board_of(size, [black_stone, white_stone])
    image = render_board(board)
    geometry = BoardGeometry.for_board(size)
    assert (
        image.shape == (*reversed(geometry.image_size), 3) and image.dtype == np.uint8
    )
    offset = geometry.stone_radius * 0.5
    bx, by = geometry.point_center(black_stone)
    wx, wy = geometry.point_center(white_stone)
    assert pixel(image, (bx, by)).max() < 140
    assert pixel(image, (bx + offset, by + offset)).max() < 140
    assert pixel(image, (wx + offset, wy + offset)).min() > 200
    empty = geometry.point_center(size * (size // 2) + 1)
    wood = pixel(image, (empty[0] + offset, empty[1] + offset))
    assert wood[0] - wood[2] > 80


def test_last_move_marker_follows_the_last_move():
    geometry = BoardGeometry.for_board(9)
    image = render_board(board_of(9, [40, 41]))
    assert is_red(pixel(image, geometry.point_center(41)))
    assert not is_red(pixel(image, geometry.point_center(40)))
    later = render_board(board_of(9, [40, 41, 10]))
    assert not is_red(pixel(later, geometry.point_center(41)))
    assert is_red(pixel(later, geometry.point_center(10)))


def test_winning_line_is_drawn_through_the_winning_stones():
    diagonal = [0, 10, 20, 30, 40]
    whites = [8, 17, 26, 35]
    moves = [move for pair in zip(diagonal, whites, strict=False) for move in pair]
    geometry = BoardGeometry.for_board(9)
    won = board_of(9, [*moves, diagonal[-1]])
    assert won.winner != 0
    image = render_board(won)
    between = np.add(geometry.point_center(10), geometry.point_center(20)) / 2
    assert is_red(pixel(image, between))
    four = render_board(board_of(9, [*moves, 80]))
    assert not is_red(pixel(four, between))


def test_move_numbers_change_the_stones():
    board = board_of(9, [40, 41, 42])
    plain = render_board(board)
    numbered = render_board(board, options=RenderOptions(move_numbers=True))
    geometry = BoardGeometry.for_board(9)
    x, y = geometry.point_center(41)
    radius = geometry.stone_radius // 2
    assert not np.array_equal(
        plain[y - radius : y + radius, x - radius : x + radius],
        numbered[y - radius : y + radius, x - radius : x + radius],
    )


def test_forbidden_points_are_crossed(monkeypatch):
    board = board_of(9, [40, 41])
    geometry = BoardGeometry.for_board(9)
    x, y = geometry.point_center(60)
    arm = geometry.cell_size // 5 - 1
    assert not is_red(pixel(render_board(board), (x + arm, y + arm)))
    mask = board.legal_mask()
    mask[60] = 0
    monkeypatch.setattr(board, "legal_mask", lambda: mask.copy())
    assert is_red(pixel(render_board(board), (x + arm, y + arm)))


def test_heatmap_colours_empty_points_and_leaves_others():
    board = board_of(9, [40])
    heat = np.zeros(81)
    heat[10] = 1.0
    heat[70] = -1.0
    plain = render_board(board)
    image = render_board(board, Overlay(heatmap=heat))
    geometry = BoardGeometry.for_board(9)
    corner = np.add(geometry.point_center(10), geometry.cell_size // 3)
    hot, cold = pixel(image, corner), pixel(plain, corner)
    assert hot[0] - hot[2] > cold[0] - cold[2]
    cool_corner = np.add(geometry.point_center(70), geometry.cell_size // 3)
    assert pixel(image, cool_corner)[2] > pixel(plain, cool_corner)[2] + 30
    quiet = np.add(geometry.point_center(30), geometry.cell_size // 3)
    assert np.array_equal(pixel(image, quiet), pixel(plain, quiet))


def test_text_and_value_change_only_the_caption():
    board = board_of(9, [40])
    plain = render_board(board)
    geometry = BoardGeometry.for_board(9)
    top = geometry.board_pixels
    for overlay in (Overlay(text="value +0.50"), Overlay(value=0.5)):
        image = render_board(board, overlay)
        assert np.array_equal(image[:top], plain[:top])
        assert not np.array_equal(image[top:], plain[top:])
    right_half = render_board(board, Overlay(value=0.9))[
        top:, -geometry.board_pixels // 4 :
    ]
    left_half = render_board(board, Overlay(value=-0.9))[
        top:, -geometry.board_pixels // 4 :
    ]
    assert not np.array_equal(right_half, left_half)


@pytest.mark.parametrize(
    ("overlay", "message"),
    [
        (dict(heatmap=np.ones(80)), "does not fit"),
        (dict(heatmap=np.ones((8, 10))), "does not fit"),
        (dict(heatmap=np.full(81, np.nan)), "finite"),
        (dict(value=1.5), "1.5"),
        (dict(text=3), "text must be a str"),
    ],
)
def test_bad_overlays_are_rejected_with_the_reason(overlay, message):
    with pytest.raises((ValueError, TypeError), match=message):
        Overlay(**overlay).heat_for(9)
