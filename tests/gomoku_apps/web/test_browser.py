"""The page in a real headless Chromium, used as a person would: start a game, click
points until it ends, undo, load a record and step through it; screenshots are checked
pixel by pixel (stones where they were played, bare wood elsewhere)."""

import io

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from gomoku_env import GameConfig
from gomoku_env.notation import action_to_notation
from gomoku_env.records import GameRecord
from tests.gomoku_apps.web.browser import BROWSER_SKIP_REASON, chromium_page, web_server
from tests.headless_browser import chromium_path

pytestmark = pytest.mark.skipif(chromium_path() is None, reason=BROWSER_SKIP_REASON)
Image = pytest.importorskip(
    "PIL.Image", reason="pillow (the render extra) reads screenshots"
)
WAIT_MS = 60_000
"""Longest wait for the page to show something (a hang guard, not a speed check)."""


@pytest.fixture(scope="module")
def address():
    with web_server() as server_address:
        yield server_address


def open_page(browser_page, address):
    browser_page.goto(address)
    browser_page.wait_for_function("window.gomoku.page.game !== null", timeout=WAIT_MS)
    return browser_page


@pytest.fixture(scope="module")
def page(address):
    with chromium_page() as browser_page:
        yield open_page(browser_page, address)


def game(page):
    return page.evaluate("window.gomoku.page.game")


def click_point(page, point):
    spot = page.evaluate(f"window.gomoku.pointOnPage('{point}')")
    page.mouse.click(spot["x"], spot["y"])


def wait_state(page, condition):
    page.wait_for_function(
        f"(() => {{ const game = window.gomoku.page.game; return game && ({condition}); }})()",
        timeout=WAIT_MS,
    )
    return game(page)


def brightness(page):
    """A function giving the mean of R, G, B a quarter of the line spacing right of and below a
    point's centre (inside a stone, off the grid lines and the markers), in a
    screenshot of the page taken now."""
    picture = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
    first, second = (
        page.evaluate(f"window.gomoku.pointOnPage('{point}')") for point in ("a1", "b1")
    )
    offset = (second["x"] - first["x"]) / 4

    def level(point):
        spot = page.evaluate(f"window.gomoku.pointOnPage('{point}')")
        return (
            sum(
                picture.getpixel((round(spot["x"] + offset), round(spot["y"] + offset)))
            )
            / 3
        )

    return level


def check_stones(page, moves, empty):
    level = brightness(page)
    for index, point in enumerate(moves):
        if index % 2 == 0:
            assert level(point) < 60, f"no black stone drawn at {point}"
        else:
            assert level(point) > 200, f"no white stone drawn at {point}"
    wood = level(empty)
    assert 100 < wood < 200, f"{empty} should show the bare board, brightness {wood}"


def stone_edge_width(page, point, scale):
    """Device pixels between a black stone and the bare board, along a row through
    the stone a quarter spacing off its centre (off the grid line): an edge drawn at
    the screen's resolution is a pixel or two wide, a scaled-up one ``scale`` or more."""
    picture = Image.open(io.BytesIO(page.screenshot())).convert("L")
    first, second = (
        page.evaluate(f"window.gomoku.pointOnPage('{name}')") for name in ("a1", "b1")
    )
    spacing = (second["x"] - first["x"]) * scale
    centre = page.evaluate(f"window.gomoku.pointOnPage('{point}')")
    x, y = round(centre["x"] * scale), round(centre["y"] * scale + spacing / 4)
    assert picture.getpixel((x, y)) < 60, f"no black stone at {point}"
    blurred = 0
    while picture.getpixel((x, y)) < 140:
        blurred += picture.getpixel((x, y)) > 40
        x += 1
    return blurred


def start_small_game(page):
    page.fill("#size", "7")
    page.fill("#black", "human")
    page.fill("#white", "random")
    page.click("#start")
    return wait_state(page, "game.size === 7 && game.moves.length === 0")


def test_a_game_against_random_is_played_to_the_end_then_undone(page):
    state = start_small_game(page)
    points = [f"{column}{row}" for row in range(1, 8) for column in "abcdefg"]
    for _ in range(25):
        if state["over"]:
            break
        count = len(state["moves"])
        click_point(page, next(p for p in points if p not in state["moves"]))
        state = wait_state(
            page,
            f"game.over || (game.moves.length === {count + 2} && !game.thinking)",
        )
    assert state["over"]
    assert "wins" in page.inner_text("#status") or "Draw" in page.inner_text("#status")
    finished = state["moves"]
    page.click("#undo")
    state = wait_state(page, f"game.moves.length < {len(finished)}")
    assert not state["over"] and state["to_move"] == "black"
    assert state["moves"] == finished[: len(state["moves"])]
    assert len(state["moves"]) in (len(finished) - 1, len(finished) - 2)
    empty = next(p for p in points if p not in state["moves"])
    check_stones(page, state["moves"], empty)


def test_clicking_an_occupied_point_shows_why_and_changes_nothing(page):
    state = start_small_game(page)
    click_point(page, "d4")
    state = wait_state(page, "game.moves.length === 2 && !game.thinking")
    click_point(page, "d4")
    page.wait_for_function(
        "document.getElementById('message').textContent.includes('d4')", timeout=WAIT_MS
    )
    assert "not a legal move" in page.inner_text("#message")
    assert game(page)["moves"] == state["moves"]


def test_a_loaded_record_is_stepped_through(page, tmp_path):
    moves = (10, 19, 11, 20, 12, 21, 13, 22, 14)
    record = GameRecord(GameConfig(9), moves, "alice", "bob", "black", "five")
    path = tmp_path / "game.txt"
    record.save(path)
    page.set_input_files("#load", str(path))
    page.wait_for_function(
        "document.getElementById('status').textContent.includes('move 9 of 9')",
        timeout=WAIT_MS,
    )
    assert "alice" in page.inner_text("#status") and "black by five" in page.inner_text(
        "#status"
    )
    names = ["b8", "b7", "c8", "c7", "d8", "d7", "e8", "e7", "f8"]
    check_stones(page, names, "e5")
    page.click("#replay-back")
    assert "move 8 of 9" in page.inner_text("#status")
    check_stones(page, names[:8], "f8")  # the fifth black stone is gone
    page.click("#replay-first")
    assert "move 0 of 9" in page.inner_text("#status")
    check_stones(page, [], "b8")
    page.click("#replay-close")
    assert page.is_visible("#game-controls")


def test_a_malformed_record_is_refused_on_the_page(page, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("Rule: freestyle\nSize: nine\n")
    page.set_input_files("#load", str(path))
    page.wait_for_function(
        "document.getElementById('message').textContent.includes('bad.txt')",
        timeout=WAIT_MS,
    )
    assert "line" in page.inner_text("#message")
    assert page.is_visible("#game-controls")


def test_move_numbers_are_shown_on_demand(page):
    start_small_game(page)
    click_point(page, "d4")
    wait_state(page, "game.moves.length === 2 && !game.thinking")
    assert page.locator("#board text.number").count() == 0
    assert page.locator("#board circle.last").count() == 1
    page.check("#numbers")
    assert page.locator("#board text.number").all_text_contents() == ["1", "2"]
    page.uncheck("#numbers")
    assert page.locator("#board text.number").count() == 0


def test_on_a_phone_the_whole_board_fits_the_screen_sharply(page, address):
    phone_screen = page.context.browser.new_context(
        bypass_csp=True, viewport={"width": 390, "height": 844}, device_scale_factor=3
    )
    try:
        phone = open_page(phone_screen.new_page(), address)
        board = phone.locator("#board").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= 390
        assert board["width"] > 300  # uses the width it has
        click_point(phone, "h8")  # a tap
        wait_state(phone, "game.moves.length === 2 && !game.thinking")
        assert stone_edge_width(phone, "h8", scale=3) <= 3
    finally:
        phone_screen.close()


def test_save_record_downloads_the_game_as_a_record(page):
    start_small_game(page)
    click_point(page, "d4")
    state = wait_state(page, "game.moves.length === 2 && !game.thinking")
    with page.expect_download(timeout=WAIT_MS) as download:
        page.click("#save")
    record = GameRecord.load(download.value.path())
    assert record.config == GameConfig(7)
    assert (record.black, record.white) == ("human", "random")
    assert [action_to_notation(move, 7) for move in record.moves] == state["moves"]


def test_coordinates_are_drawn_on_all_four_sides(page):
    start_small_game(page)
    labels = page.evaluate(
        """[...document.querySelectorAll('#board text.coordinate')].map(
            (node) => [node.textContent, +node.getAttribute('x'), +node.getAttribute('y')])"""
    )
    a1 = page.evaluate("window.gomoku.pointOnPage('a1')")
    g7 = page.evaluate("window.gomoku.pointOnPage('g7')")
    assert a1["x"] < g7["x"] and a1["y"] > g7["y"]  # the page is not mirrored
    letters = sorted((y, x) for text, x, y in labels if text == "a")
    numbers = sorted((x, y) for text, x, y in labels if text == "7")
    assert len(letters) == 2 and letters[0][1] == letters[1][1]  # above and below
    assert len(numbers) == 2 and numbers[0][1] == numbers[1][1]  # left and right
    grid_top, grid_bottom = 40, 7 * 40  # the first and last lines, in SVG units
    assert letters[0][0] < grid_top and letters[1][0] > grid_bottom
    assert numbers[0][0] < grid_top and numbers[1][0] > grid_bottom
    assert len(labels) == 4 * 7


def test_the_form_sets_the_win_length_and_shows_a_refusal(page):
    page.fill("#win-length", "9")
    page.fill("#size", "7")
    page.click("#start")
    page.wait_for_function(
        "document.getElementById('message').textContent.includes('win_length')",
        timeout=WAIT_MS,
    )
    assert "9" in page.inner_text("#message")
    page.fill("#win-length", "4")
    page.fill("#white", "human")
    page.click("#start")
    state = wait_state(page, "game.size === 7 && game.win_length === 4")
    for point in ["a1", "a7", "b1", "b7", "c1", "c7", "d1"]:
        count = len(state["moves"])
        click_point(page, point)
        state = wait_state(page, f"game.moves.length === {count + 1}")
    assert state["over"] and state["winning_line"] == ["a1", "b1", "c1", "d1"]
    page.fill("#win-length", "5")
    page.fill("#white", "random")


def test_a_loaded_record_is_played_on_from_the_move_shown(page, tmp_path):
    moves = (10, 19, 11, 20, 12, 21, 13, 22, 14)
    record = GameRecord(GameConfig(9), moves, "alice", "bob", "black", "five")
    path = tmp_path / "game.txt"
    record.save(path)
    page.fill("#black", "human")
    page.fill("#white", "human")
    page.set_input_files("#load", str(path))
    page.wait_for_function(
        "document.getElementById('status').textContent.includes('move 9 of 9')",
        timeout=WAIT_MS,
    )
    for _ in range(5):
        page.click("#replay-back")
    assert "move 4 of 9" in page.inner_text("#status")
    page.click("#replay-play")
    state = wait_state(page, "game.size === 9 && game.moves.length === 4")
    assert state["moves"] == ["b8", "b7", "c8", "c7"] and state["to_move"] == "black"
    assert state["players"] == {"black": "human", "white": "human"}
    assert page.is_visible("#game-controls") and not page.is_visible("#replay-controls")
    click_point(page, "d8")
    state = wait_state(page, "game.moves.length === 5")
    assert state["moves"][-1] == "d8" and state["to_move"] == "white"
    check_stones(page, state["moves"], "e5")
    page.fill("#white", "random")


def test_the_page_works_under_its_content_security_policy(page, address):
    """The server's policy allows only the page's own scripts, styles and server:
    with it in force the page loads, starts its game, and the console shows no
    violation."""
    context = page.context.browser.new_context(bypass_csp=False)
    try:
        strict = context.new_page()
        messages = []
        strict.on("console", lambda message: messages.append(message.text))
        strict.goto(address)
        for _ in range(200):  # page.evaluate is not subject to the page's policy
            if strict.evaluate("Boolean(window.gomoku && window.gomoku.page.game)"):
                break
            strict.wait_for_timeout(50)
        assert strict.evaluate("window.gomoku.page.game.moves.length") == 0
    finally:
        context.close()
    assert not [text for text in messages if "Content Security Policy" in text]
