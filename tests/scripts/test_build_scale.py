"""scripts/build_scale.py resumes only its own run: a folder of another board size, seed
or rule is refused by its ``build.json``, every row of a pair file must be this run's
game of its index, and its options are checked before any game is played."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

import pytest

from tests.scripts_as_modules import load_script

build_scale = load_script("scripts/build_scale.py")
ANCHORS = ["random", "heuristic"]


def build(out: Path, *flags: str) -> None:
    build_scale.main(
        [*ANCHORS, "--name", "toy", "--games", "2", "--jobs", "1", "--out", str(out),
         *flags]
    )  # fmt: skip


def pair_file(out: Path) -> Path:
    return out / build_scale.pair_file_name(*ANCHORS)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scale")
    build(out, "--board-size", "9")
    return out


def copy_of(built: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    out.mkdir()
    for path in built.iterdir():
        (out / path.name).write_bytes(path.read_bytes())
    return out


@pytest.mark.parametrize(
    ("flags", "option"),
    [
        (("--board-size", "7"), "--board-size"),
        (("--board-size", "9", "--seed", "2"), "--seed"),
        (("--board-size", "9", "--rule", "standard"), "--rule"),
    ],
)
def test_a_resume_with_other_options_is_refused_naming_the_option(
    built: Path, tmp_path: Path, flags: tuple[str, ...], option: str
) -> None:
    out = copy_of(built, tmp_path)
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    with pytest.raises(SystemExit, match=rf"build\.json: .*{option}"):
        build(out, *flags)
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before


def test_the_same_run_resumes_without_playing_again(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = copy_of(built, tmp_path)
    pairs = {path.name: path.read_bytes() for path in out.glob("*.csv")}
    monkeypatch.setattr(build_scale.Arena, "play", refuse_to_play)
    build(out, "--board-size", "9")
    assert pairs and all(
        (out / name).read_bytes() == data for name, data in pairs.items()
    )


def refuse_to_play(*arguments: object) -> None:
    raise AssertionError("a game already in the pair file was played again")


def test_pair_files_without_a_manifest_are_refused(built: Path, tmp_path: Path) -> None:
    out = copy_of(built, tmp_path)
    (out / "build.json").unlink()
    with pytest.raises(SystemExit, match=r"pair files but no build\.json"):
        build(out, "--board-size", "9")


def test_a_pair_file_cut_inside_its_last_row_is_one_line_naming_it(
    built: Path, tmp_path: Path
) -> None:
    out = copy_of(built, tmp_path)
    text = pair_file(out).read_text()
    pair_file(out).write_text(text[: text.rindex(",", 0, len(text) - 1) - 20])
    with pytest.raises(SystemExit, match=r"pair--random--heuristic\.csv, line 3: "):
        build(out, "--board-size", "9")


def test_another_seeds_games_in_a_pair_file_are_refused(
    built: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    build(other, "--board-size", "9", "--seed", "5")
    out = copy_of(built, tmp_path)
    pair_file(out).write_bytes(pair_file(other).read_bytes())
    with pytest.raises(SystemExit, match=r"line 2: opening|line 2: seeds"):
        build(out, "--board-size", "9")


@pytest.mark.parametrize("moves", ["0 81", "0 \u00b2"])  # "²".isdigit() is True
def test_moves_off_the_board_are_refused(
    built: Path, tmp_path: Path, moves: str
) -> None:
    out = copy_of(built, tmp_path)
    lines = pair_file(out).read_text().splitlines()
    row = lines[1].split(",")
    row[7] = moves
    lines[1] = ",".join(row)
    pair_file(out).write_text("\n".join(lines) + "\n")
    with pytest.raises(SystemExit, match=f"line 2: moves '{moves}' are not points"):
        build(out, "--board-size", "9")


@pytest.mark.parametrize(
    "flags",
    [
        ["--games", "0"],
        ["--games", "-5"],
        ["--games", "100000000"],
        ["--jobs", "0"],
        ["--min-games", "0"],
        ["--target-margin", "nan"],
        ["--name", "../elsewhere"],
    ],
)
def test_bad_options_are_one_line_errors_before_any_game(
    tmp_path: Path, flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*ANCHORS, "--name", "toy", "--out", str(tmp_path / "out"), *flags]
    with pytest.raises(SystemExit) as stopped:
        build_scale.main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("usage") is False
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("anchors", [["random"], ["random", "random"]])
def test_a_chain_needs_two_different_anchors(
    tmp_path: Path, anchors: list[str]
) -> None:
    argv = [*anchors, "--name", "toy", "--out", str(tmp_path / "out")]
    with pytest.raises(SystemExit) as stopped:
        build_scale.main(argv)
    assert stopped.value.code == 2


def test_a_board_the_rules_refuse_is_one_line(tmp_path: Path) -> None:
    argv = [*ANCHORS, "--name", "toy", "--out", str(tmp_path), "--board-size", "99"]
    with pytest.raises(SystemExit, match=r"build_scale\.py: error: .*99"):
        build_scale.main(argv)


def test_a_span_plays_the_pairs_apart_and_fits_them_jointly(tmp_path: Path) -> None:
    """--span 2 on three anchors plays all three pairs; the scale is one fit of them
    (a sweep included: the fit's virtual draws keep it finite) and the residuals file
    has a row per pair, the observed score within [0, 1] and inside or outside the
    predicted interval as its flag says."""
    anchors = [
        "random",
        "mcts:simulations=4,tactical=false,rollout=random",
        "heuristic",
    ]
    out = tmp_path / "out"
    build_scale.main(
        [*anchors, "--name", "toy", "--games", "4", "--jobs", "1", "--span", "2",
         "--board-size", "7", "--out", str(out)]
    )  # fmt: skip
    assert len(list(out.glob("pair--*.csv"))) == 3
    scale = list(csv.DictReader((out / "toy.csv").open()))
    ratings = [float(row["rating"]) for row in scale]
    assert sorted(row["agent"] for row in scale) == sorted(anchors)
    assert ratings == sorted(ratings)  # weakest first by the fit, gaps from below
    assert float(next(r for r in scale if r["agent"] == "random")["rating"]) == 0
    for below, row in itertools.pairwise(scale):
        gap = float(row["rating"]) - float(below["rating"])
        assert float(row["gap"]) == pytest.approx(gap, abs=0.11)
    assert all(int(row["games"]) == 4 for row in scale[1:])
    residuals = list(csv.DictReader((out / "toy-residuals.csv").open()))
    assert {(row["first"], row["second"]) for row in residuals} == {
        (anchors[0], anchors[1]), (anchors[1], anchors[2]), (anchors[0], anchors[2])
    }  # fmt: skip
    for row in residuals:
        observed, low, high = (float(row[k]) for k in ("observed", "low", "high"))
        assert 0 <= observed <= 1 and int(row["games"]) == 4
        assert row["outside"] == str(int(not low <= observed <= high))
    # A game played again move for move (heuristic is deterministic) counts once.
    distinct = {
        frozenset((games[0]["black"], games[0]["white"])): len(
            {(game["black"], game["moves"]) for game in games}
        )
        for games in (
            list(csv.DictReader(path.open())) for path in out.glob("pair--*.csv")
        )
    }
    assert {
        frozenset((row["first"], row["second"])): int(row["distinct"])
        for row in residuals
    } == distinct
    # Every game here differs, so counting each distinct game once changes no margin.
    assert set(distinct.values()) == {4}
    for row in scale:
        assert row["clustered_margin"] == row["margin"] != ""
        assert row["clustered_gap_margin"] == row["gap_margin"] != ""
    assert (out / "toy-residuals.png").read_bytes().startswith(b"\x89PNG")


def test_stored_games_of_a_pair_beyond_the_span_join_the_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run over two anchors far apart in the build order stores their games; the
    next run over all of them fits those too (without playing), and the residuals
    and the neighbour columns count them."""
    anchors = [
        "random",
        "mcts:simulations=4,tactical=false,rollout=random",
        "heuristic",
    ]
    out = tmp_path / "out"

    def run(*names: str) -> None:
        build_scale.main(
            [*names, "--name", "toy", "--games", "4", "--jobs", "1", "--span", "1",
             "--board-size", "7", "--out", str(out)]
        )  # fmt: skip

    run(*anchors)
    residuals = list(csv.DictReader((out / "toy-residuals.csv").open()))
    assert len(residuals) == 2
    run(anchors[0], anchors[2])
    monkeypatch.setattr(build_scale.Arena, "play", refuse_to_play)
    run(*anchors)
    residuals = list(csv.DictReader((out / "toy-residuals.csv").open()))
    assert {(row["first"], row["second"]) for row in residuals} == {
        (anchors[0], anchors[1]), (anchors[1], anchors[2]), (anchors[0], anchors[2])
    }  # fmt: skip
    assert all(int(row["games"]) == 4 for row in residuals)
    firsts = list(csv.DictReader((out / "toy-games.csv").open()))
    assert len(firsts) == 3
    assert build_scale.scale_pairs(anchors, 1, out) == [(0, 1), (1, 2), (0, 2)]
    assert build_scale.scale_pairs(anchors, 2, out) == [(0, 1), (1, 2), (0, 2)]
