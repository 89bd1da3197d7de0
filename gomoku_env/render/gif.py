"""A game as an animated GIF: one frame per position, from the empty board to the end.

Pillow writes the GIF: it is already the imaging library most Python installs carry, it
writes animated GIFs natively (per-frame durations, looping, palette optimisation and
cropping each frame to what changed), and imageio would only call Pillow for GIFs
anyway.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from gomoku_env.files import write_atomically
from gomoku_env.notation import result_sentence
from gomoku_env.records import GameRecord
from gomoku_env.render.renderer import render_board, render_legend
from gomoku_env.render.style import RenderOptions

DEFAULT_FRAME_MS = 600
DEFAULT_FINAL_MS = 2500
GIF_COLORS = 128


def game_frames(
    record: GameRecord, options: RenderOptions | None = None
) -> Iterator[np.ndarray]:
    """rgb arrays of the game's positions: the empty board, then one per move.

    Each frame is the players' legend (a stone of each colour and its player's name)
    above the board and its caption; the last frame's caption tells the result in the
    play window's words ("White (random) wins by resignation after 12 moves").
    """
    legend = render_legend(
        record.black, record.white, record.config.board_size, options
    )
    for move_count in range(len(record.moves) + 1):
        board = record.board(move_count)
        caption = None
        if move_count == len(record.moves):
            caption = final_caption(record)
        picture = render_board(board, options=options, caption=caption)
        yield np.concatenate([legend, picture], axis=0)


def final_caption(record: GameRecord) -> str | None:
    """The result and why, and the number of moves; None for an unfinished game."""
    if record.result == "unfinished":
        return None
    return result_sentence(
        record.result,
        record.reason,
        record.black,
        record.white,
        moves=len(record.moves),
        win_length=record.config.win_length,
    )


def _import_pillow():
    try:
        from PIL import Image
    except ImportError as error:
        from gymnasium.error import DependencyNotInstalled

        from gomoku_env.render.renderer import INSTALL_HINT

        raise DependencyNotInstalled(
            f"writing GIFs needs Pillow: {INSTALL_HINT}"
        ) from error
    return Image


MAX_FRAME_MS = 60_000
"""The longest a frame shows (GIF stores it in hundredths of a second, at most
655.35 s; a minute is plenty)."""
MAX_FRAME_BYTES = 1024 * 1024 * 1024
"""Bytes of frames a GIF may hold while it is written (Pillow keeps every frame of
an animation until it writes the file): one byte a pixel a frame."""


def check_frame_memory(record: GameRecord, options: RenderOptions) -> None:
    """Refuse, before drawing, a GIF whose frames would need more than
    :data:`MAX_FRAME_BYTES` (a full 25×25 record at 64 pixels a cell needed 4 GB)."""
    width, height = options.geometry(record.config.board_size).image_size
    frames = len(record.moves) + 1
    needed = frames * width * height
    if needed > MAX_FRAME_BYTES:
        raise ValueError(
            f"a GIF of {frames} frames of {width}x{height} pixels would hold "
            f"{needed / 2**30:.1f} GiB of frames while it is written, over the "
            f"limit of {MAX_FRAME_BYTES / 2**30:.0f} GiB: choose a smaller cell size"
        )


def save_gif(
    record: GameRecord,
    path: str | os.PathLike[str],
    frame_ms: int = DEFAULT_FRAME_MS,
    final_ms: int = DEFAULT_FINAL_MS,
    options: RenderOptions | None = None,
) -> Path:
    """Write ``record`` as a looping GIF with len(moves) + 1 frames; returns the path.

    Each frame shows for ``frame_ms`` milliseconds and the final position for
    ``final_ms``. The file is written atomically (a temporary file, then a rename).
    """
    for name, value in (("frame_ms", frame_ms), ("final_ms", final_ms)):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 20 <= value <= MAX_FRAME_MS
        ):
            raise ValueError(
                f"{name} must be an int from 20 to {MAX_FRAME_MS} milliseconds, "
                f"got {value!r}"
            )
    check_frame_memory(record, options or RenderOptions())
    image_module = _import_pillow()
    frames = [
        image_module.fromarray(frame).quantize(GIF_COLORS)
        for frame in game_frames(record, options)
    ]
    durations = [frame_ms] * (len(frames) - 1) + [final_ms]

    def write(temporary: Path) -> None:
        frames[0].save(
            temporary,
            format="GIF",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=0,
            optimize=True,
        )

    return write_atomically(path, write)
