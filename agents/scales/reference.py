"""The reference rating scales: versioned, frozen anchors that ``gomoku rate`` rates on.

A scale is a CSV file of anchors (``agent`` an agent spec, ``rating`` its Elo rating
with ``random`` at 0, ``margin`` the half-width of that rating's 95% interval), named
by its version in a ``scale`` column: ``9x9-v1``. The package ships its reference
scales under ``anchors/`` (so an installed wheel has them); :data:`REFERENCE_SCALES`
lists them with their rules. A published version never changes: a test pins its
numbers, another replays a stored game of every anchor move for move, and a rerun
becomes the next version. Versions ``v1`` on are built by ``scripts/build_scale.py``
from anchors on work budgets: ``v1`` a chain, each gap from its two neighbours' games
alone, later versions one fit of all games over pairs up to three steps apart. ``v0``
is the round-robin ladder that came before, kept where no ``v1`` exists yet: it holds
an anchor on a clock, so its ratings depend on the machine.

A ladder written by ``gomoku ladder --output PREFIX`` (``PREFIX.csv``) can serve as a
scale too: :func:`read_scale` reads it, under rules that the caller states. Its
agents are specs that the rating will build and play, so a file naming ``python:`` or
``engine:`` agents (code or a program of their own) is refused unless the caller
trusts it.

>>> scale = reference_scale(9)
>>> scale.name == latest_scale(9) and scale.name.startswith("9x9-v")
True
>>> scale.anchor("random").rating
0.0
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from gomoku_env.config import GameConfig, Rule
from gomoku_env.files import read_text_file

REFERENCE_SCALES = {
    "9x9-v0": GameConfig(9, 5, Rule.FREESTYLE),
    "9x9-v1": GameConfig(9, 5, Rule.FREESTYLE),
    "9x9-v2": GameConfig(9, 5, Rule.FREESTYLE),
    "15x15-v0": GameConfig(15, 5, Rule.FREESTYLE),
    "15x15-v1": GameConfig(15, 5, Rule.FREESTYLE),
    "15x15-v2": GameConfig(15, 5, Rule.FREESTYLE),
}
"""The shipped scales by version (each in ``anchors/VERSION.csv``) and their rules."""
SCALE_COLUMNS = (
    "scale",
    "agent",
    "rating",
    "margin",
    "gap",
    "gap_margin",
    "games",
    "ms_per_move",
    "clustered_margin",
    "clustered_gap_margin",
)
"""A built scale's columns: version, spec, rating and its 95% margin against random,
the gap to the anchor below and its margin, the games of that gap, the anchor's
thinking time per move where it was built, and both margins again with each distinct
game counted once (a game replayed move for move tells nothing new; scales built
before 2026-12-06 lack these two)."""
CODE_AGENTS = ("python", "engine")
"""Agents whose spec runs code or a program of the spec's choosing."""


def family(spec: str) -> str:
    """The family of the agent ``spec``: its name (``"mcts:simulations=50"``: mcts)."""
    return spec.split(":", 1)[0]


@dataclass(frozen=True)
class Anchor:
    """An agent of a reference ladder, with its rating and the 95% margin on it, and
    its thinking time a move where the scale was built (None where the file has
    none): a clock figure, which only ranks anchors by cost."""

    spec: str
    rating: float
    margin: float
    ms_per_move: float | None = field(default=None, compare=False)


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


def parse_anchors(
    text: str, source: str, trust: bool = False
) -> tuple[str | None, tuple[Anchor, ...]]:
    """The version (its ``scale`` column, None without one) and the anchors of a
    scale CSV's text: its ``agent``, ``rating`` and ``margin``.

    Raises:
        ValueError: naming ``source`` and the line, for a missing column, a rating
            or margin that is no finite number, a repeated agent, two versions in one
            file, an agent that runs code or a program (``python:``, ``engine:``)
            unless ``trust``, or a file without rows.
    """
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
    missing = {"agent", "rating"} - set(reader.fieldnames or ())
    if missing:
        raise ValueError(f"{source}: not a ladder CSV, no column {sorted(missing)}")
    anchors: list[Anchor] = []
    versions: set[str] = set()
    for row in reader:
        where = f"{source}, line {reader.line_num}"
        spec = row["agent"]
        if None in row.values():
            raise ValueError(f"{where}: a column is missing on this line")
        rating, margin = _rating_and_margin(row, where)
        cost = thinking_time(row.get("ms_per_move"), where)
        if any(anchor.spec == spec for anchor in anchors):
            raise ValueError(f"{where}: agent {spec!r} appears twice")
        if not trust and spec.split(":", 1)[0].strip() in CODE_AGENTS:
            raise ValueError(
                f"{where}: agent {spec[:80]!r} runs code or a program named by the "
                "file; rate against it only if you trust the file (--trust-reference)"
            )
        versions.add(row.get("scale") or "")
        if len(versions) > 1:
            raise ValueError(f"{where}: scale {row.get('scale')!r} differs from above")
        anchors.append(Anchor(spec, rating, margin, cost))
    if not anchors:
        raise ValueError(f"{source}: no anchors in the file")
    return (versions.pop() or None), tuple(anchors)


def _rating_and_margin(row: dict[str, str], where: str) -> tuple[float, float]:
    """A row's rating (finite, within ±MAX_RATING) and margin (finite, >= 0; 0
    when the column is missing or empty), or a ValueError naming ``where``."""
    try:
        rating, margin = float(row["rating"]), float(row.get("margin") or 0)
    except ValueError:
        raise ValueError(
            f"{where}: rating {row['rating']!r} or margin "
            f"{row.get('margin')!r} is no number"
        ) from None
    if not (math.isfinite(rating) and math.isfinite(margin) and margin >= 0):
        raise ValueError(f"{where}: bad rating {rating!r} or margin {margin!r}")
    if abs(rating) > MAX_RATING:
        raise ValueError(f"{where}: rating {rating!r} is beyond ±{MAX_RATING}")
    return rating, margin


def thinking_time(text: str | None, where: str) -> float | None:
    """A row's ``ms_per_move`` (None when the column is missing or empty); a
    ValueError naming ``where`` unless it is a finite number >= 0."""
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{where}: ms_per_move {text[:80]!r} is no number") from None
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{where}: ms_per_move {value!r} is not a time >= 0")
    return value


MAX_RATING = 10_000.0
"""Ratings beyond ± this are refused: no game result can support them."""


def latest_scale(board_size: int) -> str:
    """The newest shipped scale of ``board_size``, freestyle with win length 5."""
    versions = [
        name
        for name, config in REFERENCE_SCALES.items()
        if config.board_size == board_size
    ]
    if not versions:
        sizes = sorted({config.board_size for config in REFERENCE_SCALES.values()})
        listed = " and ".join(f"{size}x{size}" for size in sizes)
        raise ValueError(
            f"no reference scale for board size {board_size}: they exist for "
            f"{listed}; give your own ladder CSV with --reference FILE"
        )
    return max(versions, key=lambda name: int(name.rsplit("-v", 1)[1]))


def reference_scale(
    board_size: int | None = None, version: str | None = None
) -> RatingScale:
    """A shipped scale: ``version`` (``"9x9-v1"``), or the newest for ``board_size``."""
    if version is None:
        if board_size is None:
            raise ValueError("give a board size or a scale version")
        version = latest_scale(board_size)
    if version not in REFERENCE_SCALES:
        raise ValueError(
            f"no reference scale {version!r}; the shipped ones are "
            + ", ".join(REFERENCE_SCALES)
        )
    config = REFERENCE_SCALES[version]
    if board_size is not None and board_size != config.board_size:
        raise ValueError(
            f"{version} is a {config.board_size}x{config.board_size} scale, not "
            f"{board_size}x{board_size}"
        )
    name = f"{version}.csv"
    text = resources.files(__package__).joinpath("anchors", name).read_text("utf-8")
    _, anchors = parse_anchors(text, name)
    return RatingScale(version, config, anchors)


def read_scale(
    path: str | Path, config: GameConfig, trust: bool = False
) -> RatingScale:
    """The anchors of a scale or ladder CSV file, taken to be rated under
    ``config``'s rules; ``trust`` lets its agents run code (see the module).

    The scale is named by the file's ``scale`` column only where that names what the
    file holds: a shipped version's name on other anchors, ratings or rules is the
    file's own scale, and says so."""
    text = read_text_file(path, "a ladder CSV file")
    version, anchors = parse_anchors(text, str(path), trust)
    if version in REFERENCE_SCALES:
        shipped = reference_scale(version=version)
        if (shipped.config, shipped.anchors) != (config, tuple(anchors)):
            version = f"the scale of {path} (not the shipped {version} it names)"
    return RatingScale(version or f"the scale of {path}", config, anchors)
