"""`make demo` (examples/demo.py): the strongest agents, a GIF that names them."""

import csv

from PIL import Image

from agents.specs.parse import parse_spec
from tests.docs_examples import ROOT
from tests.scripts_as_modules import load_script


def load_demo():
    return load_script("examples/demo.py")


def test_the_demo_pits_the_top_agents_of_both_reference_ladders():
    demo = load_demo()
    for size in (9, 15):
        with open(
            ROOT / "docs" / f"ladder-{size}x{size}.csv", encoding="utf-8"
        ) as file:
            best = next(csv.DictReader(file))
        assert best["rank"] == "1"
        for player in demo.PLAYERS:
            assert parse_spec(player)[0] == parse_spec(best["agent"])[0]


def test_the_demo_writes_a_record_and_a_gif_naming_both_players(tmp_path, capsys):
    demo = load_demo()
    record = demo.main(("heuristic", "random"), board_size=9, out_dir=tmp_path)
    output = capsys.readouterr().out
    assert "Black: heuristic  White: random" in output
    assert "Black (heuristic) wins by five in a row" in output
    assert record.result == "black" and (tmp_path / "demo.txt").is_file()
    with Image.open(tmp_path / "demo.gif") as gif:
        assert gif.n_frames == len(record.moves) + 1


def test_the_demo_shows_the_loop_and_a_policy_learning(capsys):
    demo = load_demo()
    final = demo.learn_against_random(updates=200)
    output = capsys.readouterr().out
    assert "observation: 64 games of (6, 6, 5) int8 planes" in output
    assert "action mask: 36 legal points of 36" in output
    rates = [float(line.split("won ")[1].split("%")[0]) for line in output.splitlines()
             if line.startswith("update")]  # fmt: skip
    assert len(rates) == 4
    # Counted in updates, not seconds: from about half to clearly more.
    assert rates[0] < 60 and final >= 0.7 and final * 100 > rates[0] + 15
