"""The reference rating scales: the stored ladders' agents and ratings, as anchors.

The package ships the CSV files of the reference ladders (``docs/ladder-9x9.csv`` and
``docs/ladder-15x15.csv`` in the source tree; copies under ``anchors/`` in the package,
so an installed wheel has them). Each row's ``agent`` is an agent spec and ``rating``
its Elo rating, ``random`` at 0; ``margin`` is the half-width of its 95% interval.
``gomoku rate`` plays a new agent against these anchors with their ratings held fixed.

A ladder written by ``gomoku ladder --output PREFIX`` (``PREFIX.csv``) can serve as a
scale too: :func:`read_scale` reads it, under rules that the caller states.

>>> scale = reference_scale(9)
>>> scale.anchor("random").rating
0.0
>>> [anchor.spec for anchor in scale.select(["heuristic", "random"]).anchors]
['heuristic', 'random']
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from gomoku_env.config import GameConfig, Rule
from gomoku_env.files import read_text_file

ANCHOR_FILES = {9: "ladder-9x9.csv", 15: "ladder-15x15.csv"}
"""The stored reference ladders by board size: all freestyle, win length 5."""
REFERENCE_RULE = Rule.FREESTYLE
REFERENCE_WIN_LENGTH = 5


@dataclass(frozen=True)
class Anchor:
    """An agent of a reference ladder, with its rating and the 95% margin on it."""

    spec: str
    rating: float
    margin: float


@dataclass(frozen=True)
class RatingScale:
    """Anchors rated on one scale, and the rules their ladder was played under."""

    name: str
    config: GameConfig
    anchors: tuple[Anchor, ...]

    def anchor(self, spec: str) -> Anchor:
        """The anchor whose spec is ``spec``."""
        for anchor in self.anchors:
            if anchor.spec == spec:
                return anchor
        raise ValueError(f"no anchor {spec!r} on {self.name}; {self._listing()}")

    def select(self, choices: Sequence[str]) -> RatingScale:
        """The scale with only the anchors chosen, by full spec or by agent name.

        An agent name (the spec's part before ``:``) chooses the anchor with that
        name when only one has it. Raises ValueError naming an unknown or ambiguous
        choice and listing the anchors.
        """
        chosen: list[Anchor] = []
        for choice in choices:
            matches = [a for a in self.anchors if a.spec == choice] or [
                a for a in self.anchors if a.spec.split(":", 1)[0] == choice
            ]
            if len(matches) != 1:
                problem = "matches several anchors" if matches else "is no anchor"
                raise ValueError(
                    f"{choice!r} {problem} of {self.name}; {self._listing()}"
                )
            if matches[0] not in chosen:
                chosen.append(matches[0])
        return replace(self, anchors=tuple(chosen))

    def _listing(self) -> str:
        return "anchors: " + ", ".join(repr(anchor.spec) for anchor in self.anchors)


def parse_anchors(text: str, source: str) -> tuple[Anchor, ...]:
    """The anchors in a ladder CSV's text: its ``agent``, ``rating`` and ``margin``.

    Raises:
        ValueError: naming ``source`` and the line, for a missing column, a rating
            that is no finite number, a repeated agent or a file without rows.
    """
    reader = csv.DictReader(io.StringIO(text))
    missing = {"agent", "rating"} - set(reader.fieldnames or ())
    if missing:
        raise ValueError(f"{source}: not a ladder CSV, no column {sorted(missing)}")
    anchors: list[Anchor] = []
    for row in reader:
        where = f"{source}, line {reader.line_num}"
        try:
            rating, margin = float(row["rating"]), float(row.get("margin") or 0)
        except ValueError:
            raise ValueError(
                f"{where}: rating {row['rating']!r} is no number"
            ) from None
        if not math.isfinite(rating) or not margin >= 0:
            raise ValueError(f"{where}: bad rating {rating!r} or margin {margin!r}")
        if any(anchor.spec == row["agent"] for anchor in anchors):
            raise ValueError(f"{where}: agent {row['agent']!r} appears twice")
        anchors.append(Anchor(row["agent"], rating, margin))
    if not anchors:
        raise ValueError(f"{source}: no anchors in the file")
    return tuple(anchors)


def reference_scale(board_size: int) -> RatingScale:
    """The stored reference scale for ``board_size`` (9 or 15), from package data."""
    if board_size not in ANCHOR_FILES:
        sizes = " and ".join(f"{size}x{size}" for size in ANCHOR_FILES)
        raise ValueError(
            f"no reference ladder for board size {board_size}: they exist for "
            f"{sizes}; give your own ladder CSV with --reference FILE"
        )
    name = ANCHOR_FILES[board_size]
    text = resources.files(__package__).joinpath("anchors", name).read_text("utf-8")
    config = GameConfig(board_size, REFERENCE_WIN_LENGTH, REFERENCE_RULE)
    return RatingScale(
        f"the {board_size}x{board_size} reference scale",
        config,
        parse_anchors(text, name),
    )


def read_scale(path: str | Path, config: GameConfig) -> RatingScale:
    """The anchors of a ladder CSV file, taken to be rated under ``config``'s rules."""
    text = read_text_file(path, "a ladder CSV file")
    return RatingScale(f"the scale of {path}", config, parse_anchors(text, str(path)))
