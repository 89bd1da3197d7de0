"""The end of a game in one wording: the env's picture, the last frame of a GIF and the
play window draw the same sentence under the board (the env without the players'
names, which it does not know)."""

import pytest

import gomoku_env
from gomoku_apps.gui.play_app import PlayApp
from gomoku_apps.gui.session import GameSession, Seat
from gomoku_env import GameConfig
from gomoku_env.render import game_frames, scene


@pytest.fixture
def captions(monkeypatch):
    """The texts drawn in the caption strip under the board, in order."""
    drawn = []
    real_draw_caption = scene.draw_caption

    def spy(strip, text, value, theme):
        drawn.append(text)
        return real_draw_caption(strip, text, value, theme)

    monkeypatch.setattr(scene, "draw_caption", spy)
    return drawn


def env_caption(config, moves, captions):
    env = gomoku_env.env(config=config, render_mode="rgb_array")
    env.reset(seed=0)
    for action in moves:
        env.step(action)
    env.render()
    env.close()
    return captions[-1]


def play_window_caption(session, captions):
    app = PlayApp(session, fps=1000)
    try:
        app.frame()
    finally:
        app.close()
    return captions[-1]


@pytest.mark.parametrize(
    ("config", "moves", "sentence"),
    [
        (
            GameConfig(9),
            [0, 80, 1, 79, 2, 78, 3, 77, 4],
            "Black (alice) wins by five in a row after 9 moves",
        ),
        (
            GameConfig(9, win_length=4),
            [0, 80, 1, 79, 2, 78, 40, 77],
            "White (bob) wins by four in a row after 8 moves",
        ),
    ],
)
def test_env_gif_and_play_window_tell_the_end_alike(config, moves, sentence, captions):
    session = GameSession(config, Seat("alice"), Seat("bob"))
    for action in moves:
        session.play(action)
    assert session.is_over
    play_window = play_window_caption(session, captions)
    list(game_frames(session.record()))
    gif = captions[-1]
    env = env_caption(config, moves, captions)
    assert play_window == gif == sentence
    unnamed = sentence.replace(" (alice)", "").replace(" (bob)", "")
    assert env == unnamed
