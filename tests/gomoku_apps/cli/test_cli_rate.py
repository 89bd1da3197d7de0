"""gomoku rate: an agent placed on a stored scale by games against its anchors."""

from __future__ import annotations

import contextlib
import re

import pytest

from gomoku_apps.cli.main import main
from tests.agents import faulty_agents

FORFEITER = f"python:{faulty_agents.__file__}:Crashing"
RATING_LINE = re.compile(r"^rating ([+-]?\d+) \(95% CI ([+-]?\d+) … ([+-]?\d+)\)", re.M)


def test_rate_places_an_agent_between_the_anchors_it_beats_and_loses_to(
    tmp_path, capsys
):
    ladder = tmp_path / "toy-ladder.csv"
    ladder.write_text(
        "rank,agent,rating,margin\n"
        "1,heuristic,800.0,150.0\n"
        f"2,{FORFEITER},-400.0,90.0\n"
    )
    records = tmp_path / "games"
    code = main(
        [
            "rate",
            "random",
            "--reference",
            str(ladder),
            "--board-size",
            "7",
            "--games",
            "4",
            "--openings",
            "none",
            "--records",
            str(records),
            "--no-progress",
        ]
    )
    output = capsys.readouterr().out
    assert code == 0, output
    assert len(list(records.glob("game-*.txt"))) == 8  # 4 games per anchor
    assert output.startswith(
        f"random on the scale of {ladder} (freestyle, win length 5)"
    )
    assert re.search(r"^heuristic +\+800 +4 +0/0/4 +0\.000$", output, re.M)
    assert re.search(rf"^{re.escape(FORFEITER)} +-400 +4 +4/0/0 +1\.000$", output, re.M)
    rating, low, high = map(int, RATING_LINE.search(output).groups())
    assert -400 < rating < 800 and low < rating < high
    assert "--games 16 would halve" in output
    assert "margins of ±90 to ±150 Elo" in output


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--board-size", "9", "--rule", "renju"],
            "9x9 reference scale was played under 9x9 freestyle, win length 5, "
            "not 9x9 renju",
        ),
        (["--board-size", "13"], "no reference ladder for board size 13"),
        (["--board-size", "9", "--anchors", "mcts"], "'mcts' matches several"),
        (["--board-size", "9", "--games", "0"], "expected an integer >= 1"),
    ],
)
def test_rate_refuses_bad_requests_before_playing(options, message, capsys):
    usage_error = "--games" in options  # argparse's, which exits
    with pytest.raises(SystemExit) if usage_error else contextlib.nullcontext():
        assert main(["rate", "random", *options, "--no-progress"]) == 2
    assert message in capsys.readouterr().err
