"""Pixel layout: every point maps to a pixel and back, for every board size."""

import pytest

from gomoku_env.render.geometry import BoardGeometry, default_cell_size


@pytest.mark.parametrize("size", range(5, 26))
def test_points_map_to_pixels_and_back(size):
    geometry = BoardGeometry.for_board(size)
    for action in range(size * size):
        x, y = geometry.point_center(action)
        assert geometry.action_at(x, y) == action
        assert geometry.action_at(x + geometry.cell_size * 0.4, y - 3) == action
    assert (
        geometry.board_pixels == 2 * geometry.margin + (size - 1) * geometry.cell_size
    )


@pytest.mark.parametrize("size", [5, 15, 25])
def test_outside_the_board_is_no_point(size):
    geometry = BoardGeometry.for_board(size)
    assert geometry.action_at(0, 0) is None
    assert geometry.action_at(geometry.board_pixels, 5) is None


def test_default_cell_size_keeps_boards_near_600_pixels():
    widths = [BoardGeometry.for_board(size).board_pixels for size in (9, 15, 19)]
    assert all(500 <= width <= 700 for width in widths)
    assert default_cell_size(25) < default_cell_size(9)


def test_star_points_of_15x15_are_the_usual_five():
    geometry = BoardGeometry(15, 40)
    assert geometry.star_points() == [48, 56, 112, 168, 176]


@pytest.mark.parametrize(("size", "cell"), [(4, 30), (26, 30), (15, 8), (15, 200)])
def test_bad_geometry_names_the_value(size, cell):
    with pytest.raises(ValueError, match=str(size if size in (4, 26) else cell)):
        BoardGeometry(size, cell)
