"""The reference scales: shipped as package data, versioned, frozen, anchors pinned."""

from __future__ import annotations

import csv
import io
from importlib import resources
from pathlib import Path

import pytest

from agents.scales.reference import (
    REFERENCE_SCALES,
    Anchor,
    latest_scale,
    parse_anchors,
    read_scale,
    reference_scale,
)
from gomoku_apps.arena.ladder import check_work_budget
from gomoku_apps.arena.runner import GameTask, play_task
from gomoku_env import GameConfig, Rule

ROOT = Path(__file__).resolve().parents[3]

PINNED = {
    "15x15-v0": {"random": (0.0, 0.0), "heuristic": (980.7, 288.7)},
    "15x15-v1": {
        "random": (0.0, 0.0),
        "mcts:simulations=3,tactical=false,rollout=random": (195.5, 39.6),
        "mcts:simulations=4,tactical=false,rollout=random": (261.8, 54.2),
        "mcts:simulations=8,tactical=false,rollout=random": (384.8, 65.2),
        "mcts:simulations=16,tactical=false,rollout=random": (447.0, 75.0),
        "mcts:simulations=128,tactical=false,rollout=random": (560.3, 83.1),
        "mcts:simulations=256,tactical=false,rollout=random": (662.5, 91.4),
        "mcts:simulations=10": (724.7, 98.6),
        "mcts:simulations=141": (849.6, 105.0),
        "mcts:simulations=200": (1009.4, 111.6),
        "mcts:simulations=283": (1067.5, 117.5),
        "mcts:simulations=400": (1103.4, 123.1),
        "mcts:simulations=800": (1180.1, 128.6),
        "mcts:simulations=1600": (1291.4, 133.5),
        "mcts:simulations=2260": (1400.9, 138.2),
        "mcts:simulations=3200": (1520.0, 142.9),
        "mcts:simulations=141,vcf_nodes=100": (1692.8, 147.9),
        "mcts:evaluator=patterns,simulations=2": (1868.9, 152.8),
        "heuristic": (1865.4, 157.2),
        "alphabeta:nodes=100,branching=4": (2030.6, 161.5),
        "alphabeta:nodes=100": (2101.0, 165.8),
        "alphabeta:nodes=1000": (2233.9, 169.7),
        "alphabeta:nodes=2000": (2329.6, 173.8),
        "alphabeta:nodes=5000": (2462.5, 177.6),
        "alphazero:weights=15x15,simulations=50": (2487.4, 181.1),
        "alphazero:weights=15x15,simulations=100": (2640.8, 184.9),
        "alphazero:weights=15x15,simulations=200": (2611.0, 188.5),
    },
    "15x15-v2": {
        "random": (0.0, 0.0),
        "mcts:simulations=3,tactical=false,rollout=random": (195.0, 35.1),
        "mcts:simulations=4,tactical=false,rollout=random": (259.7, 41.8),
        "mcts:simulations=8,tactical=false,rollout=random": (392.7, 45.9),
        "mcts:simulations=16,tactical=false,rollout=random": (463.7, 50.2),
        "mcts:simulations=128,tactical=false,rollout=random": (590.8, 54.5),
        "mcts:simulations=256,tactical=false,rollout=random": (713.2, 58.9),
        "mcts:simulations=10": (796.1, 62.5),
        "mcts:simulations=141": (922.1, 66.0),
        "mcts:simulations=200": (1087.7, 70.0),
        "mcts:simulations=283": (1153.3, 72.8),
        "mcts:simulations=400": (1205.7, 74.9),
        "heuristic:noise=0.5": (1219.9, 77.5),
        "mcts:simulations=800": (1293.5, 77.9),
        "mcts:simulations=1600": (1414.6, 80.8),
        "heuristic:noise=0.3": (1508.6, 84.1),
        "mcts:simulations=2260": (1518.7, 83.8),
        "mcts:simulations=3200": (1621.4, 86.9),
        "heuristic:noise=0.2": (1687.9, 87.7),
        "mcts:simulations=141,vcf_nodes=100": (1811.1, 90.6),
        "heuristic:noise=0.1": (1844.4, 91.3),
        "mcts:evaluator=patterns,simulations=2": (2030.6, 94.2),
        "heuristic": (2034.2, 96.0),
        "alphabeta:nodes=100,branching=4": (2187.5, 98.2),
        "alphabeta:nodes=100": (2226.0, 99.8),
        "alphabeta:nodes=1000": (2315.4, 101.6),
        "alphabeta:nodes=2000": (2362.0, 103.1),
        "alphazero:weights=15x15,simulations=50": (2443.8, 106.1),
        "alphabeta:nodes=5000": (2444.2, 104.7),
        "alphabeta:nodes=20000": (2558.1, 109.3),
        "alphazero:weights=15x15,simulations=100": (2587.5, 107.5),
        "alphazero:weights=15x15,simulations=200": (2595.2, 108.7),
        "alphabeta:nodes=60000": (2622.1, 111.4),
        "alphazero:weights=15x15-gumbel,simulations=50": (2653.6, 111.1),
        "alphazero:weights=15x15-gumbel,simulations=100": (2687.3, 112.0),
        "alphazero:weights=15x15-gumbel,simulations=200": (2765.6, 114.7),
        "alphazero:weights=15x15-gumbel,simulations=400": (2825.8, 117.4),
    },
    "9x9-v0": {"random": (0.0, 0.0), "heuristic": (781.1, 256.1)},
    "9x9-v1": {
        "random": (0.0, 0.0),
        "mcts:simulations=4,tactical=false,rollout=random": (190.8, 39.3),
        "mcts:simulations=8,tactical=false,rollout=random": (327.8, 53.8),
        "mcts:simulations=16,tactical=false,rollout=random": (378.6, 63.9),
        "mcts:simulations=32,tactical=false,rollout=random": (411.7, 72.4),
        "mcts:simulations=64,tactical=false,rollout=random": (496.7, 80.5),
        "mcts:simulations=128,tactical=false,rollout=random": (660.8, 89.0),
        "mcts:simulations=25": (684.3, 95.2),
        "mcts:simulations=50": (778.6, 101.6),
        "mcts:simulations=65": (932.0, 108.3),
        "mcts:simulations=80": (1057.0, 114.2),
        "mcts:simulations=100": (1206.3, 120.1),
        "mcts:simulations=200": (1313.8, 125.3),
        "mcts:simulations=400": (1415.7, 130.2),
        "mcts:simulations=800": (1560.8, 135.4),
        "mcts:simulations=1130": (1665.5, 140.0),
        "mcts:simulations=1600": (1813.7, 144.7),
        "mcts:simulations=2260": (1964.0, 148.7),
        "mcts:simulations=3200": (2073.4, 152.0),
        "heuristic": (2120.6, 153.8),
        "ppo:weights=9x9": (2150.2, 155.2),
        "alphabeta:nodes=2000": (2318.6, 157.5),
        "alphabeta:nodes=5000": (2380.4, 160.2),
        "alphazero:weights=9x9,simulations=50": (2443.7, 163.4),
        "alphazero:weights=9x9,simulations=100": (2466.3, 165.8),
        "alphazero:weights=9x9,simulations=200": (2483.7, 167.7),
    },
    "9x9-v2": {
        "random": (0.0, 0.0),
        "mcts:simulations=4,tactical=false,rollout=random": (180.7, 34.9),
        "mcts:simulations=8,tactical=false,rollout=random": (315.8, 42.2),
        "mcts:simulations=16,tactical=false,rollout=random": (389.8, 45.7),
        "mcts:simulations=32,tactical=false,rollout=random": (433.3, 49.1),
        "mcts:simulations=64,tactical=false,rollout=random": (514.1, 52.7),
        "mcts:simulations=128,tactical=false,rollout=random": (697.9, 57.5),
        "mcts:simulations=25": (723.2, 60.3),
        "mcts:simulations=50": (796.7, 63.2),
        "mcts:simulations=65": (939.1, 66.7),
        "mcts:simulations=80": (1050.0, 70.2),
        "mcts:simulations=100": (1176.8, 73.4),
        "heuristic:noise=0.5": (1245.4, 76.6),
        "mcts:simulations=200": (1268.5, 76.3),
        "mcts:simulations=400": (1348.7, 79.5),
        "heuristic:noise=0.4": (1385.1, 80.0),
        "mcts:simulations=800": (1483.4, 83.0),
        "heuristic:noise=0.3": (1495.5, 83.3),
        "heuristic:noise=0.2": (1687.0, 87.3),
        "mcts:simulations=1600": (1747.1, 90.3),
        "heuristic:noise=0.1": (1851.1, 93.1),
        "mcts:simulations=3200": (1994.1, 95.6),
        "heuristic": (2040.7, 96.8),
        "ppo:weights=9x9": (2047.1, 98.3),
        "alphabeta:nodes=2000": (2196.4, 100.3),
        "alphabeta:nodes=5000": (2226.1, 102.5),
        "alphazero:weights=9x9,simulations=50": (2289.7, 104.5),
        "alphazero:weights=9x9,simulations=100": (2337.7, 106.2),
        "alphazero:weights=9x9,simulations=200": (2367.1, 108.9),
    },
}
"""Numbers of published scales: a change to a published version fails here (a rerun
becomes a new version instead)."""


@pytest.mark.parametrize("version", sorted(REFERENCE_SCALES))
def test_every_scale_loads_as_package_data_under_its_version(version):
    text = resources.files("agents.scales").joinpath("anchors", f"{version}.csv")
    name, anchors = parse_anchors(text.read_text("utf-8"), version)
    scale = reference_scale(version=version)
    assert name == scale.name == version
    assert scale.anchors == anchors
    assert scale.config == REFERENCE_SCALES[version]
    assert scale.config.rule is Rule.FREESTYLE and scale.config.win_length == 5
    assert scale.anchor("random") == Anchor("random", 0.0, 0.0)
    assert all(anchor.margin >= 0 for anchor in anchors)


@pytest.mark.parametrize("version", sorted(PINNED))
def test_published_numbers_are_pinned(version):
    scale = reference_scale(version=version)
    for spec, (rating, margin) in PINNED[version].items():
        anchor = scale.anchor(spec)
        assert (anchor.rating, anchor.margin) == (rating, margin)


def test_the_newest_version_of_a_board_size_is_the_default():
    for size in (9, 15):
        version = latest_scale(size)
        assert reference_scale(size).name == version
        assert version.startswith(f"{size}x{size}-v")
    with pytest.raises(ValueError, match=r"board size 13.*9x9 and 15x15.*--reference"):
        reference_scale(13)
    with pytest.raises(ValueError, match="no reference scale '9x9-v99'"):
        reference_scale(version="9x9-v99")


def test_pyproject_declares_the_scales_as_package_data():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    with (ROOT / "pyproject.toml").open("rb") as stream:
        package_data = tomllib.load(stream)["tool"]["setuptools"]["package-data"]
    patterns = package_data["agents.scales"]
    package = ROOT / "agents" / "scales"
    declared = {path.name for pattern in patterns for path in package.glob(pattern)}
    assert {f"{version}.csv" for version in REFERENCE_SCALES} <= declared


def test_anchors_are_chosen_by_spec_or_by_unique_name():
    scale = reference_scale(version="9x9-v0")
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


def test_an_anchor_must_be_on_a_work_budget():
    config = GameConfig(9)
    check_work_budget("mcts:simulations=100", config)
    check_work_budget("alphabeta:nodes=500", config)
    check_work_budget("alphabeta", config)  # its default budget counts nodes
    with pytest.raises(ValueError, match="searches on a clock"):
        check_work_budget("alphabeta:time=0.1", config)
    with pytest.raises(ValueError, match="searches on a clock"):
        check_work_budget("mcts:simulations=100,time=1", config)
    with pytest.raises(ValueError, match="is code or a program"):
        check_work_budget("engine:/bin/true", config)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("agent,score\nrandom,0.5\n", r"no column \['rating'\]"),
        ("agent,rating\nrandom,high\n", "line 2: rating 'high' or margin"),
        ("agent,rating\nrandom,inf\n", "line 2: bad rating"),
        ("agent,rating\nrandom,nan\n", "line 2: bad rating"),
        ("agent,rating,margin\nrandom,0,-1\n", "line 2: bad rating"),
        ("agent,rating\nrandom,1e308\n", r"line 2: rating 1e\+308 is beyond"),
        ("agent,rating\nrandom,0\nrandom,5\n", "line 3: agent 'random' appears twice"),
        (
            "agent,rating,margin\nrandom,0,0\nheuristic,5\n",
            "line 3: a column is missing",
        ),
        (
            "scale,agent,rating\na,random,0\nb,heuristic,5\n",
            "line 3: scale 'b' differs",
        ),
        ("agent,rating\npython:os:system,0\n", "line 2: agent 'python:os:system' runs"),
        ("agent,rating\nengine:/bin/sh,0\n", "line 2: agent 'engine:/bin/sh' runs"),
        ("agent,rating\n", "no anchors"),
    ],
)
def test_a_bad_scale_csv_is_a_clear_error(tmp_path, text, message):
    path = tmp_path / "mine.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=f"mine.csv.*{message}"):
        read_scale(path, GameConfig(7))


def test_a_trusted_file_may_name_code_agents_and_a_bom_is_ignored(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text("\ufeffscale,agent,rating\nmine-v1,python:my_module:agent,12\n")
    scale = read_scale(path, GameConfig(7), trust=True)
    assert scale.name == "mine-v1"
    assert scale.anchors == (Anchor("python:my_module:agent", 12.0, 0.0),)


def test_a_binary_ladder_file_is_named(tmp_path):
    path = tmp_path / "ladder.png"
    path.write_bytes(b"agent,rating\n\x89PNG\x1a\x00\xff")
    with pytest.raises(ValueError, match=r"ladder\.png, line 2: not UTF-8 text"):
        read_scale(path, GameConfig(7))


def stored_games() -> list[tuple[str, dict[str, str]]]:
    """The first game of every anchor pair of the chains (v1), and one game of each
    pair of neighbours (in the build order) with a new anchor in later versions: the
    first (9x9-v2), or the quickest of the pair's first ten (15x15-v2, whose top
    anchors think for up to half a second a move). The others' play is pinned by v1's
    games."""
    games = []
    for path in sorted((ROOT / "tests" / "data" / "scales").glob("*-games.csv")):
        version = path.name.removesuffix("-games.csv")
        rows = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
        games += [(version, row) for row in rows]
    return games


@pytest.mark.parametrize(
    ("version", "game"),
    stored_games(),
    ids=lambda value: value if isinstance(value, str) else value["black"],
)
def test_every_anchor_plays_its_stored_game_move_for_move(version, game):
    """A change that alters an anchor's moves would shift a published scale."""
    opening = tuple(int(action) for action in game["opening"].split())
    black_seed, white_seed = (int(seed) for seed in game["seeds"].split())
    task = GameTask(
        0,
        game["black"],
        game["white"],
        game["black"],
        game["white"],
        opening,
        (black_seed, white_seed),
        REFERENCE_SCALES[version],
    )
    moves = play_task(task).outcome.moves
    assert " ".join(map(str, moves)) == game["moves"]


BUILT = [version for version in REFERENCE_SCALES if not version.endswith("-v0")]
"""Scales built by scripts/build_scale.py: anchors on work budgets."""
CHAINS = ("9x9-v1", "15x15-v1")
"""The built scales that are chains, each gap from its two neighbours' games alone;
later versions are one fit of all pairs up to three steps apart."""


@pytest.mark.parametrize("version", BUILT)
def test_a_built_scale_has_no_anchor_on_a_clock_and_close_neighbours(version):
    """Every anchor on a work budget, weakest first; neighbours at most 200 Elo apart,
    each gap known to a 95% margin of at most 40 Elo (a chain's from at least 200
    games of the pair; a joint fit's from all games, the pair's 100 or more)."""
    scale = reference_scale(version=version)
    for anchor in scale.anchors:
        check_work_budget(anchor.spec, scale.config)
    text = resources.files("agents.scales").joinpath("anchors", f"{version}.csv")
    rows = list(csv.DictReader(io.StringIO(text.read_text("utf-8"))))[1:]
    assert all(abs(float(row["gap"])) <= 200 for row in rows)
    assert all(float(row["gap_margin"]) <= 40 for row in rows)
    chain = version in CHAINS
    assert all(int(row["games"]) >= (200 if chain else 100) for row in rows)
    margins = [anchor.margin for anchor in scale.anchors]
    if chain:  # the margin against random grows along the chain
        assert margins == sorted(margins)
    else:  # weakest first by the fit
        assert all(float(row["gap"]) >= 0 for row in rows)


def test_every_built_scale_has_its_games_stored_for_replay():
    stored = {version for version, _ in stored_games()}
    assert stored == set(BUILT)


@pytest.mark.parametrize("value", ["fast", "-1", "nan", "inf"])
def test_a_bad_thinking_time_is_named(tmp_path, value):
    path = tmp_path / "mine.csv"
    path.write_text(f"agent,rating,ms_per_move\nrandom,0,0.1\nheuristic,5,{value}\n")
    with pytest.raises(ValueError, match=f"mine.csv, line 3: ms_per_move .*{value}"):
        read_scale(path, GameConfig(7))


def test_the_thinking_time_is_read_where_the_file_has_it():
    scale = reference_scale(version="9x9-v1")
    assert scale.anchor("heuristic").ms_per_move == 0.23
    assert scale.anchor("mcts:simulations=3200").ms_per_move == 70.39
