"""Openings for arena matches: a built-in book per common board size, or a user file.

Every opening is played twice, once with each agent as black, so what the opening gives
one colour is cancelled out; the book's job is variety (deterministic agents would
otherwise replay one game) without positions that one side wins trivially.

How the built-in book was chosen: the candidates are the 26 classic three-stone
openings (black on the centre, white on a neighbouring point, directly or diagonally,
black's second stone anywhere in the central 5×5), one per class of board symmetry, as
in the 26 renju openings. ``scripts/build_opening_book.py`` plays each candidate in
self-play with a fast agent (``heuristic``) and keeps those where black's score stays
inside a band around ½, topped up with the most balanced others to at least a dozen
(see :data:`gomoku_apps.arena.builtin_openings.BOOK_METHOD`; each opening's score is stored
beside it). Sizes without a built-in book use all 26 candidates.

A user file holds one opening per line in notation (``h8 h9 i10``), with blank lines and
``#`` comments ignored; the line ``-`` stands for the empty board.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gomoku_apps.arena.builtin_openings import BUILTIN_BOOK
from gomoku_env.board import inverse_permutations
from gomoku_env.config import GameConfig
from gomoku_env.files import read_text_file
from gomoku_env.kernels import centre_point
from gomoku_env.notation import format_moves
from gomoku_env.openings import parse_opening

Opening = tuple[int, ...]
BOOK = "book"
NO_OPENING = "none"
_CENTRE_RADIUS = 2


def _canonical(opening: Opening, board_size: int) -> tuple[tuple[int, ...], ...]:
    """The smallest image of the opening's stone sets under the 8 symmetries."""
    images = inverse_permutations(board_size)[:, list(opening)]
    return min(
        (tuple(sorted(image[0::2])), tuple(sorted(image[1::2]))) for image in images
    )


def candidate_openings(board_size: int) -> list[Opening]:
    """The 26 classic three-stone openings on this board, one per symmetry class."""
    size = board_size
    centre = centre_point(size)
    offsets = range(-_CENTRE_RADIUS, _CENTRE_RADIUS + 1)
    area = [centre + dr * size + dc for dr in offsets for dc in offsets]
    seen: set[tuple[tuple[int, ...], ...]] = set()
    openings: list[Opening] = []
    for reply in (centre - size, centre - size + 1):
        for third in area:
            if third in (centre, reply):
                continue
            opening = (centre, reply, third)
            key = _canonical(opening, size)
            if key not in seen:
                seen.add(key)
                openings.append(opening)
    return openings


def builtin_openings(config: GameConfig) -> list[Opening]:
    """The built-in book for this board size, or all candidates where there is none."""
    book = BUILTIN_BOOK.get(config.board_size)
    if book is None:
        return candidate_openings(config.board_size)
    return [tuple(parse_opening(line, config)) for line in book]


def read_openings(path: str | Path, config: GameConfig) -> list[Opening]:
    """The openings in a user file (see the module docstring), each checked.

    Raises:
        FileNotFoundError: no such file.
        ValueError: a line is not a valid opening on this board (names the line),
            the file is not UTF-8 text or a directory (names the file), or it holds
            no opening.
    """
    path = Path(path)
    openings: list[Opening] = []
    text = read_text_file(path, "an opening file").removeprefix("\ufeff")
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            openings.append(() if line == "-" else tuple(parse_opening(line, config)))
        except ValueError as error:
            raise ValueError(
                f"{path}:{number}: bad opening {line!r}: {error}"
            ) from None
    if not openings:
        raise ValueError(f"opening file {str(path)!r} holds no opening")
    return openings


def load_openings(source: str | Path | None, config: GameConfig) -> list[Opening]:
    """Openings from ``"book"`` (or None: the built-in book), ``"none"`` or a file."""
    if source is None or source == BOOK:
        return builtin_openings(config)
    if source == NO_OPENING:
        return [()]
    return read_openings(source, config)


def shuffled(openings: list[Opening], seed: int) -> list[Opening]:
    """The openings in an order drawn from ``seed`` (so seeds vary the pairings)."""
    order = np.random.default_rng(seed).permutation(len(openings))
    return [openings[i] for i in order]


def describe(opening: Opening, board_size: int) -> str:
    """An opening in notation, ``-`` for the empty board."""
    return format_moves(list(opening), board_size) if opening else "-"
