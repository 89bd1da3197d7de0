"""Rating cards: ``gomoku rate --card`` writes one, ``gomoku verify`` replays it.

Every card here is tiny (9x9, two cheap anchors of the newest 9x9 scale, two games each), so each
verification replays four short games.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from agents.scales.reference import latest_scale, reference_scale
from gomoku_apps.arena.cards import CARD_LIMIT
from gomoku_apps.cli.main import main
from gomoku_env.notation import action_to_notation, parse_moves
from tests.agents import faulty_agents

CHEAP = "mcts:simulations=4,tactical=false,rollout=random"
RATE = ["rate", "random", "--board-size", "9", "--anchors", "random", CHEAP]
NINE = latest_scale(9)
_cheap = reference_scale(version=NINE).anchor(CHEAP)
CHEAP_RATING = f"{_cheap.rating:.1f} ± {_cheap.margin:.1f}"
VERIFIED = re.compile(rf"^verified: random [+-]\d+ on {NINE} \(4 games\)$", re.M)


def rate_with_card(path: Path, *options: str) -> str:
    """The card ``gomoku rate`` writes to ``path``, as text."""
    arguments = [*RATE, "--games", "2", "--seed", "3", "--no-progress"]
    assert main([*arguments, *options, "--card", str(path)]) == 0
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def card_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    return rate_with_card(tmp_path_factory.mktemp("card") / "card.json")


def verify(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Exit code and the one line of output (stdout, else stderr)."""
    capsys.readouterr()
    code = main(["verify", str(path)])
    captured = capsys.readouterr()
    lines = (captured.out or captured.err).splitlines()
    return code, lines[0] if lines else ""


def tampered(tmp_path: Path, text: str, change) -> Path:
    card = json.loads(text)
    change(card)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    return path


def test_a_card_holds_the_run_and_verifies(tmp_path, card_text, capsys):
    card = json.loads(card_text)
    assert card["card_version"] == 1 and card["scale"]["name"] == NINE
    assert [a["spec"] for a in card["scale"]["anchors"]] == ["random", CHEAP]
    assert card["command"][:3] == ["gomoku", "rate", "random"]
    assert card["reproduce"].startswith("gomoku rate random --board-size 9")
    assert card["agent"] == "random" and card["seed"] == 3
    assert card["plan"]["games_per_anchor"] == 2
    assert len(card["games"]) == 4
    assert {g["anchor_color"] for g in card["games"]} == {"black", "white"}
    assert card["rating"]["report"].startswith(f"random on {NINE}")
    path = tmp_path / "card.json"
    path.write_text(card_text, encoding="utf-8")
    code, line = verify(path, capsys)
    assert code == 0 and VERIFIED.match(line), line


def test_a_card_to_a_margin_from_an_opening_file_and_of_a_forfeiter_verify(
    tmp_path, capsys
):
    openings = tmp_path / "openings.txt"
    openings.write_text("e5\nd4 e5\n", encoding="utf-8")
    path = tmp_path / "margin.json"
    arguments = [*RATE, "--margin", "1", "--max-games", "4", "--no-progress"]
    assert main([*arguments, "--openings", str(openings), "--card", str(path)]) == 0
    card = json.loads(path.read_text(encoding="utf-8"))
    assert sorted(card["openings"]) == ["d4 e5", "e5"]
    plan = {"games_per_anchor": None, "margin": 1, "max_games": 4, "spread": 3}
    assert card["plan"] == plan
    code, line = verify(path, capsys)
    assert code == 0 and VERIFIED.match(line), line
    # A card from before spreads has none: read as spread 1, the two nearest anchors,
    # which with two anchors are the rounds this card played.
    del card["plan"]["spread"]
    path.write_text(json.dumps(card), encoding="utf-8")
    code, line = verify(path, capsys)
    assert code == 0 and VERIFIED.match(line), line
    crashing = f"python:{faulty_agents.__file__}:Crashing"
    path = tmp_path / "forfeits.json"
    arguments = ["rate", crashing, "--board-size", "9", "--anchors", "random"]
    assert main([*arguments, "--games", "2", "--no-progress", "--card", str(path)]) == 0
    code, line = verify(path, capsys)
    assert code == 0 and line.startswith(f"verified: {crashing} ")


def test_an_existing_card_is_kept_without_force_and_a_reference_has_none(
    tmp_path, capsys
):
    path = tmp_path / "card.json"
    path.write_text("mine", encoding="utf-8")
    arguments = [*RATE, "--games", "1", "--no-progress", "--card", str(path)]
    assert main(arguments) == 2
    assert "exists: give another --card file, or --force" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "mine"
    assert main([*arguments, "--force"]) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["card_version"] == 1
    ladder = tmp_path / "mine.csv"
    ladder.write_text("agent,rating\nrandom,0\n", encoding="utf-8")
    reference = ["rate", "random", "--board-size", "9", "--reference", str(ladder)]
    assert main([*reference, "--card", str(tmp_path / "new.json")]) == 2
    assert "--card needs a shipped scale" in capsys.readouterr().err


def _anchor_ply(card: dict) -> tuple[dict, int]:
    """The first game and the index of its anchor's first move."""
    game = card["games"][0]
    opening = len(game["opening"].split())
    side = 0 if game["anchor_color"] == "black" else 1
    ply = opening if opening % 2 == side else opening + 1
    return game, ply


def _move_anchor(card: dict) -> None:
    game, ply = _anchor_ply(card)
    moves = parse_moves(game["moves"], 9)
    empty = next(a for a in range(81) if a not in moves)
    moves[ply] = empty
    game["moves"] = " ".join(action_to_notation(a, 9) for a in moves)


def _occupy(card: dict) -> None:
    game, ply = _anchor_ply(card)
    moves = parse_moves(game["moves"], 9)
    moves[ply + 1] = moves[0]  # the agent plays on a stone
    game["moves"] = " ".join(action_to_notation(a, 9) for a in moves)


def _flip_result(card: dict) -> None:
    game = card["games"][0]
    game["winner"] = {"black": "white", "white": "black", None: "black"}[game["winner"]]


def _other_rating(card: dict) -> None:
    card["rating"]["rating"] += 50


def _other_version(card: dict) -> None:
    card["scale"]["name"] = "9x9-v0"


def _unknown_version(card: dict) -> None:
    card["scale"]["name"] = "9x9-v9"


def _better_anchor(card: dict) -> None:
    card["scale"]["anchors"][1]["rating"] = 900.0


def _one_game_less(card: dict) -> None:
    card["games"].pop()


def _other_seeds(card: dict) -> None:
    card["games"][1]["seeds"] = [1, 2]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_move_anchor, r"^not verified: game 0, move \d+: \S+ with seed \d+ plays "),
        (_occupy, r"^not verified: game 0, move \d+: [a-i]\d is not a legal move"),
        (_flip_result, r"^not verified: game 0: the card's result is "),
        (_other_rating, r"^not verified: the card's rating .* is not what its games"),
        (_other_version, rf"anchor '{re.escape(CHEAP)}' .* is no anchor of it: is"),
        (_unknown_version, r"scale '9x9-v9' is no scale this package ships"),
        (_better_anchor, re.escape(f"has rating {CHEAP_RATING} there")),
        (_one_game_less, r"the card ends after 3 games; the run .* plays game 3"),
        (
            _other_seeds,
            r"^not verified: game 1: seeds \(1, 2\) on the card, \(\d+, \d+\) in",
        ),
    ],
    ids=lambda value: getattr(value, "__name__", "")[1:] or None,
)
def test_a_card_that_was_changed_fails_at_the_first_change(
    tmp_path, card_text, capsys, change, message
):
    code, line = verify(tampered(tmp_path, card_text, change), capsys)
    assert code == 1 and re.search(message, line), line


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, r"card\.json: not a rating card: not JSON"),  # truncated
        (b"\x89PNG\r\n\x1a\n\x00\xff", "not UTF-8 text"),
        (b"[" * 100_000, "not a rating card"),
        (b'{"card_version": 2}', "card_version 2: this package reads version 1"),
        (b'{"card_version": 1}', "rules: missing"),
        (b"[1, 2]", "the file: expected an object, got a list of 2"),
        (b'{"card_version": NaN}', "not JSON"),
    ],
)
def test_a_bad_file_is_one_line(tmp_path, card_text, capsys, content, message):
    path = tmp_path / "card.json"
    data = card_text.encode()[: len(card_text) // 2] if content is None else content
    path.write_bytes(data)
    code, line = verify(path, capsys)
    assert code == 2 and line.startswith("gomoku: error: ") and re.search(message, line)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("seed", -1, "seed: expected an integer from 0, got -1"),
        ("seed", True, "seed: expected an integer from 0, got True"),
        ("openings", "mine.txt", "openings: expected one of 'book', 'none'"),
        ("plan", {"games_per_anchor": None, "margin": None, "max_games": 9}, "plan:"),
        ("rules", {"board_size": 99, "win_length": 5, "rule": "freestyle"}, "rules:"),
    ],
)
def test_a_field_of_the_wrong_kind_is_named(
    tmp_path, card_text, capsys, key, value, message
):
    path = tampered(tmp_path, card_text, lambda card: card.__setitem__(key, value))
    code, line = verify(path, capsys)
    assert code == 2 and message in line, line


def test_a_bad_point_is_named_with_its_game(tmp_path, card_text, capsys):
    def off_board(card):
        card["games"][2]["moves"] += " z99"

    code, line = verify(tampered(tmp_path, card_text, off_board), capsys)
    assert code == 2 and "games[2].moves: 'z99' is off the 9x9 board" in line


def test_a_huge_file_and_a_directory_are_refused_unread(tmp_path, capsys):
    huge = tmp_path / "huge.json"
    with huge.open("wb") as stream:
        stream.truncate(CARD_LIMIT + 1)  # sparse: no disk used
    code, line = verify(huge, capsys)
    assert code == 2 and "too large for a rating card" in line
    code, line = verify(tmp_path, capsys)
    assert code == 2 and "is a directory, not a rating card" in line
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        code, line = verify(fifo, capsys)
        assert code == 2 and "is not a regular file" in line
