"""The env's render modes: pictures from "rgb_array", a window from "human", no pygame
at all without a render mode."""

import subprocess
import sys

import numpy as np
import pytest

import gomoku_env
from gomoku_env import Board, GameConfig
from gomoku_env.render import RenderOptions
from gomoku_env.render.scene import board_status

NO_PYGAME_SCRIPT = """
import sys
import gomoku_env
for mode in (None, "ansi", "rgb_array"):
    env = gomoku_env.env(board_size=9, render_mode=mode)
    env.reset(seed=0)
    observation, *_ = env.last()
    env.step(int(observation["action_mask"].argmax()))
    if mode is None:
        env.unwrapped.set_overlay(text="ignored")
    env.close()
print("pygame" in sys.modules)
"""


def test_no_pygame_until_a_picture_is_drawn():
    result = subprocess.run(
        [sys.executable, "-c", NO_PYGAME_SCRIPT],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"


def play_some(env, count):
    env.reset(seed=3)
    for _ in range(count):
        observation, *_ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))


def test_rgb_array_follows_the_game_and_the_overlay():
    env = gomoku_env.env(board_size=9, render_mode="rgb_array")
    play_some(env, 0)
    empty = env.render()
    play_some(env, 3)
    played = env.render()
    assert empty.shape == played.shape and empty.dtype == np.uint8
    assert not np.array_equal(empty, played)
    env.unwrapped.set_overlay(heatmap=np.linspace(0, 1, 81), text="policy", value=0.25)
    with_overlay = env.render()
    assert not np.array_equal(with_overlay, played)
    env.unwrapped.set_overlay()
    assert np.array_equal(env.render(), played)
    env.unwrapped.renderer.options = RenderOptions(move_numbers=True)
    assert not np.array_equal(env.render(), played)
    with pytest.raises(ValueError, match="does not fit"):
        env.unwrapped.set_overlay(heatmap=np.ones(80))


def test_human_mode_opens_a_window_and_close_releases_it(monkeypatch):
    import pygame

    monkeypatch.setitem(gomoku_env.raw_env.metadata, "render_fps", 1000)
    env = gomoku_env.env(board_size=9, render_mode="human")
    play_some(env, 2)
    assert env.render() is None
    assert pygame.display.get_surface() is not None
    env.unwrapped.set_overlay(heatmap=np.ones((9, 9)))
    env.render()
    env.close()
    assert pygame.display.get_surface() is None


def test_unknown_render_mode_is_rejected():
    with pytest.raises(ValueError, match="'svg'"):
        gomoku_env.env(render_mode="svg")


@pytest.mark.parametrize(
    ("moves", "config", "status"),
    [
        ([0, 80], GameConfig(9), "Black to move (move 3)"),
        (
            [0, 80, 1, 79, 2, 78, 3, 77, 4],
            GameConfig(9),
            "Black wins by five in a row after 9 moves",
        ),
        (
            [0, 80, 1, 62, 2, 44, 4, 26, 5, 8, 3],
            GameConfig(9, 5, "renju"),
            "White wins by black's forbidden overline after 11 moves",
        ),
    ],
)
def test_the_caption_says_whose_turn_or_how_the_game_ended(moves, config, status):
    assert board_status(Board.from_moves(moves, config)) == status
