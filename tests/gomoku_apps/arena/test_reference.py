"""The reference scales ship with the package and match the ladders in docs/."""

from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

import pytest

from gomoku_apps.arena.reference import (
    ANCHOR_FILES,
    Anchor,
    parse_anchors,
    read_scale,
    reference_scale,
)
from gomoku_env import GameConfig, Rule

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("size", sorted(ANCHOR_FILES))
def test_the_anchors_load_as_package_data_and_match_the_docs(size):
    name = ANCHOR_FILES[size]
    text = resources.files("gomoku_apps.arena").joinpath("anchors", name).read_text()
    scale = reference_scale(size)
    assert scale.config == GameConfig(size, 5, Rule.FREESTYLE)
    assert scale.anchor("random") == Anchor("random", 0.0, 0.0)
    with (ROOT / "docs" / name).open(encoding="utf-8") as docs:
        rows = list(csv.DictReader(docs))
    assert [(a.spec, a.rating) for a in scale.anchors] == [
        (row["agent"], float(row["rating"])) for row in rows
    ]
    assert parse_anchors(text, name) == scale.anchors


def test_pyproject_declares_the_anchors_as_package_data():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    with (ROOT / "pyproject.toml").open("rb") as stream:
        package_data = tomllib.load(stream)["tool"]["setuptools"]["package-data"]
    patterns = package_data["gomoku_apps.arena"]
    package = ROOT / "gomoku_apps" / "arena"
    declared = {path.name for pattern in patterns for path in package.glob(pattern)}
    assert set(ANCHOR_FILES.values()) <= declared


def test_anchors_are_chosen_by_spec_or_by_unique_name():
    scale = reference_scale(9)
    chosen = scale.select(["mcts:simulations=400", "heuristic", "random", "random"])
    assert [a.spec for a in chosen.anchors] == [
        "mcts:simulations=400",
        "heuristic",
        "random",
    ]
    with pytest.raises(ValueError, match=r"'mcts' matches several anchors.*random"):
        scale.select(["mcts"])
    with pytest.raises(ValueError, match="'gnugo' is no anchor"):
        scale.select(["gnugo"])


def test_no_reference_for_other_sizes():
    with pytest.raises(ValueError, match=r"board size 13.*9x9 and 15x15.*--reference"):
        reference_scale(13)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("agent,score\nrandom,0.5\n", r"no column \['rating'\]"),
        ("agent,rating\nrandom,high\n", "line 2: rating 'high' is no number"),
        ("agent,rating\nrandom,inf\n", "line 2: bad rating"),
        ("agent,rating\nrandom,0\nrandom,5\n", "line 3: agent 'random' appears twice"),
        ("agent,rating\n", "no anchors"),
    ],
)
def test_a_bad_ladder_csv_is_a_clear_error(tmp_path, text, message):
    path = tmp_path / "mine.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=f"mine.csv.*{message}"):
        read_scale(path, GameConfig(7))


def test_a_binary_ladder_file_is_named(tmp_path):
    path = tmp_path / "ladder.png"
    path.write_bytes(b"agent,rating\n\x89PNG\x1a\x00\xff")
    with pytest.raises(ValueError, match=r"ladder\.png, line 2: not UTF-8 text"):
        read_scale(path, GameConfig(7))
