"""Readable pictures: WCAG contrast of text on what it is drawn on, and a fixed-size
caption whatever it says."""

import pytest

from gomoku_env import Board, GameConfig
from gomoku_env.render import RenderOptions, render_board
from gomoku_env.render import text as caption_module
from gomoku_env.render.markers import move_number_color
from gomoku_env.render.style import DEFAULT_THEME
from gomoku_env.render.text import elide, font

WCAG_AA = 4.5


def relative_luminance(color):
    """WCAG 2's relative luminance of an sRGB colour."""
    channels = []
    for value in color:
        value /= 255
        channels.append(
            value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
        )
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first, second):
    lighter, darker = sorted(map(relative_luminance, (first, second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_formula_matches_wcag_examples():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


THEME = DEFAULT_THEME


@pytest.mark.parametrize("last", [False, True])
@pytest.mark.parametrize("on_black", [False, True])
def test_move_numbers_read_on_their_stone(on_black, last):
    stone = THEME.black_stone if on_black else THEME.white_stone
    assert contrast(move_number_color(on_black, last, THEME), stone) >= WCAG_AA


def test_the_old_red_number_on_black_was_too_faint():
    assert contrast(THEME.last_move, THEME.black_stone) < WCAG_AA


@pytest.mark.parametrize(
    ("text", "background"),
    [
        ("caption_text", "caption_background"),
        ("button_text", "button"),
    ],
)
def test_caption_and_button_text_read(text, background):
    assert contrast(getattr(THEME, text), getattr(THEME, background)) >= WCAG_AA


def test_the_last_number_on_a_black_stone_is_drawn_in_its_colour():
    board = Board.from_moves([40, 41, 30], GameConfig(9))
    options = RenderOptions(cell_size=40, move_numbers=True)
    picture = render_board(board, options=options)
    x, y = options.geometry(9).point_center(30)
    stone = picture[y - 12 : y + 12, x - 12 : x + 12].reshape(-1, 3)
    colours = {tuple(int(channel) for channel in pixel) for pixel in stone}
    assert THEME.last_number_on_black in colours
    assert THEME.last_move not in colours


def interleaved(blacks, whites):
    return [move for pair in zip(blacks, whites, strict=False) for move in pair] + (
        blacks[len(whites) :]
    )


@pytest.mark.parametrize(
    "moves",
    [
        interleaved([20, 30, 40, 50, 60], [21, 31, 41, 51]),
        interleaved([0, 20, 8, 62, 80], [37, 38, 39, 40, 41]),
    ],
    ids=["black wins on a diagonal", "white wins on a row"],
)
def test_the_winning_line_leaves_the_winners_numbers_readable(moves):
    board = Board.from_moves(moves, GameConfig(9))
    assert board.winner != 0
    options = RenderOptions(cell_size=40, move_numbers=True)
    picture = render_board(board, options=options)
    geometry = options.geometry(9)
    half = geometry.stone_radius // 2
    # The line's red next to a number is under the contrast promised for numbers.
    for stone in (THEME.black_stone, THEME.white_stone):
        assert contrast(THEME.winning_line, stone) < WCAG_AA
    for action in board.winning_line():
        index = board.moves.index(action)
        number = move_number_color(index % 2 == 0, index == len(moves) - 1, THEME)
        x, y = geometry.point_center(action)
        middle = picture[y - half : y + half, x - half : x + half].reshape(-1, 3)
        colours = {tuple(int(channel) for channel in pixel) for pixel in middle}
        assert number in colours
        assert THEME.winning_line not in colours


def test_caption_keeps_its_size_and_cuts_long_text(monkeypatch):
    drawn = []
    real_draw_text = caption_module.draw_text

    def spy(surface, text, size, color, **where):
        drawn.append((text, size))
        return real_draw_text(surface, text, size, color, **where)

    monkeypatch.setattr(caption_module, "draw_text", spy)
    board = Board(GameConfig(9))
    options = RenderOptions(cell_size=30)
    render_board(board, options=options, caption="Move 9 · White (mcts) thinking…")
    long = "Move 9 · White (" + "mcts:simulations=100000," * 8 + ") thinking…"
    render_board(board, options=options, caption=long)
    (short_text, short_size), (long_text, long_size) = drawn
    assert short_text == "Move 9 · White (mcts) thinking…"
    assert short_size == long_size
    assert long_text.endswith("…") and len(long_text) < len(long)
    width = options.geometry(9).board_pixels
    assert font(long_size).size(long_text)[0] < width


def test_elide_keeps_text_that_fits():
    assert elide("short", 20, 500) == "short"
    cut = elide("x" * 200, 20, 100)
    assert cut.endswith("…") and font(20).size(cut)[0] <= 100


class _CountingFont:
    """Stands in for a pygame font: 10 pixels a character, every measurement noted."""

    def __init__(self, measured):
        self.measured = measured

    def size(self, text):
        self.measured.append(len(text))
        return (10 * len(text), 10)


def test_elide_of_a_huge_name_measures_few_short_texts(monkeypatch):
    measured = []
    monkeypatch.setattr(caption_module, "font", lambda size: _CountingFont(measured))
    cut = elide("n" * 500_000, 20, 100)
    assert cut == "n" * 9 + "…"
    assert len(measured) <= 12
    assert max(measured) <= caption_module.DRAWN_CHARACTERS + 1
    measured.clear()
    assert caption_module.fitting_size("m" * 500_000, 30, 100) == 10
    assert max(measured) <= caption_module.DRAWN_CHARACTERS
