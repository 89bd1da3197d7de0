"""gomoku rate: an agent placed on a stored scale by games against its anchors."""

from __future__ import annotations

import contextlib
import math
import re

import pytest

from agents.scales.reference import Anchor, RatingScale
from gomoku_apps.arena.match import Arena
from gomoku_apps.arena.rate import rate_to_margin
from gomoku_apps.cli.main import main
from gomoku_env import GameConfig
from tests.agents import faulty_agents

FORFEITER = f"python:{faulty_agents.__file__}:Crashing"
RATING_LINE = re.compile(
    r"^rating ([+-]?\d+) \(95% CI ([+-]?\d+) … ([+-]?\d+), ±(\d+)\) on (.+), (\d+) games",
    re.M,
)
TOY = GameConfig(board_size=7, win_length=4)
TOY_SCALE = RatingScale(
    "toy-v1",
    TOY,
    (
        Anchor("random", 0.0, 0.0),
        Anchor("mcts:simulations=30", 350.0, 40.0),
        Anchor("heuristic", 700.0, 60.0),
    ),
)


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
    arguments = ["rate", "random", "--reference", str(ladder), "--board-size", "7"]
    arguments += ["--games", "4", "--openings", "none", "--records", str(records)]
    assert main([*arguments, "--no-progress"]) == 2  # the file names code to run
    assert "runs code or a program" in capsys.readouterr().err
    code = main([*arguments, "--trust-reference", "--no-progress", "--force"])
    output = capsys.readouterr().out
    assert code == 0, output
    assert len(list(records.glob("game-*.txt"))) == 8  # 4 games per anchor
    assert output.startswith(
        f"random on the scale of {ladder} (7x7 freestyle, win length 5): "
        "4 games per anchor"
    )
    assert re.search(r"^heuristic +\+800 +4 +0/0/4 +0\.000$", output, re.M)
    assert re.search(rf"^{re.escape(FORFEITER)} +-400 +4 +4/0/0 +1\.000$", output, re.M)
    rating, low, high, _, _, games = RATING_LINE.search(output).groups()
    assert -400 < int(rating) < 800 and int(low) < int(rating) < int(high)
    assert int(games) == 8
    # Against random, the anchors' margins (90, 150) widen the games' interval.
    against = r"Against random = 0, counting the anchors' own margins \(±1[0-4]\d"
    assert re.search(against, output)
    assert "reproduce: gomoku rate random --board-size 7" in output
    assert "--games 4 --openings none --seed 0" in output


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--board-size", "9", "--rule", "renju"],
            "was played under 9x9 freestyle, win length 5, not 9x9 renju",
        ),
        (["--board-size", "13"], "no reference scale for board size 13"),
        (["--board-size", "9", "--anchors", "mcts"], "'mcts' matches several"),
        (["--board-size", "9", "--scale", "9x9-v9"], "no reference scale '9x9-v9'"),
        (["--board-size", "9", "--max-games", "9"], "--max-games goes with --margin"),
        (["--board-size", "9", "--resume"], "--resume needs --records"),
        (["--board-size", "9", "--spread", "3"], "--spread goes with --margin"),
        (
            ["--board-size", "9", "--scale", "9x9-v1", "--reference", "x.csv"],
            "give --scale or --reference, not both",
        ),
        (["--board-size", "9", "--games", "0"], "expected an integer >= 1"),
        (["--board-size", "9", "--margin", "0"], "expected a finite number > 0"),
        (["--board-size", "9", "--margin", "-5"], "expected a finite number > 0"),
        (["--board-size", "9", "--margin", "nan"], "expected a finite number > 0"),
        (["--board-size", "9", "--margin", "inf"], "expected a finite number > 0"),
        (["--board-size", "9", "--margin", "9", "--games", "4"], "not allowed with"),
    ],
)
def test_rate_refuses_bad_requests_before_playing(options, message, capsys):
    usage_error = any(option in options for option in ("--games", "--margin"))
    with pytest.raises(SystemExit) if usage_error else contextlib.nullcontext():
        assert main(["rate", "random", *options, "--no-progress"]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert len(errors) == 1 and message in errors[0]  # one line says what is wrong


def test_margin_plays_until_the_interval_is_that_wide():
    margins: list[float] = []
    rated = rate_to_margin(
        Arena(TOY, seed=3),
        "mcts:simulations=10",
        TOY_SCALE,
        margin=220,
        on_round=lambda rated: margins.append(rated.margin),
    )
    assert rated.margin <= 220 < min(margins[:-1])
    # Two games against each anchor a round meets: the first round, from the scale's
    # middle (350), reaches all three families; later ones at least two anchors.
    first_round = {game.white if game.black == rated.name else game.black
                   for game in rated.games[:6]}  # fmt: skip
    assert first_round == {anchor.spec for anchor in TOY_SCALE.anchors}
    assert 4 * len(margins) <= len(rated.games) <= 6 * len(margins)
    # Against random the anchors' margins add, weighed: between the smallest and
    # largest that were played, and never narrower than the games' interval.
    assert 0 < rated.anchors_margin <= 60
    low, high = rated.against_random
    assert low < rated.rating.low and high > rated.rating.high


def test_spread_one_plays_the_two_nearest_anchors_every_round():
    rated = rate_to_margin(
        Arena(TOY, seed=3), "mcts:simulations=10", TOY_SCALE, margin=220, spread=1
    )
    assert len(rated.games) % 4 == 0
    assert rated.tally("random").games + rated.tally("heuristic").games > 0
    assert rated.tally("mcts:simulations=30").games == len(rated.games) // 2


def test_the_same_seed_gives_the_same_rating_whatever_the_jobs():
    one = rate_to_margin(
        Arena(TOY, seed=5, jobs=1), "mcts:simulations=10", TOY_SCALE, 300
    )
    two = rate_to_margin(
        Arena(TOY, seed=5, jobs=2), "mcts:simulations=10", TOY_SCALE, 300
    )
    assert one.rating == two.rating
    assert [g.outcome.moves for g in one.games] == [g.outcome.moves for g in two.games]


@pytest.mark.parametrize("margin", [0, -1, math.nan, math.inf, True, "50"])
def test_a_bad_margin_is_refused(margin):
    with pytest.raises((ValueError, TypeError), match="margin must be"):
        rate_to_margin(Arena(TOY), "random", TOY_SCALE, margin)


def test_the_reproduce_line_names_every_option_that_changes_the_games(tmp_path, capsys):
    ladder = tmp_path / "toy.csv"
    ladder.write_text("rank,agent,rating,margin\n1,random,0.0,0.0\n")
    arguments = ["rate", "random", "--reference", str(ladder), "--board-size", "7"]
    arguments += ["--games", "1", "--move-time", "2.5", "--no-progress"]
    assert main(arguments) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("reproduce: ") and "--move-time 2.5" in line


@pytest.mark.parametrize("max_games", [1, 3, 5])
def test_max_games_plays_at_most_the_games_asked_and_names_only_them(
    tmp_path, capsys, max_games
):
    ladder = tmp_path / "toy.csv"
    ladder.write_text(
        "rank,agent,rating,margin\n1,random,0.0,0.0\n2,heuristic,700.0,50.0\n"
    )
    arguments = ["rate", "random", "--reference", str(ladder), "--board-size", "7"]
    arguments += ["--margin", "1", "--max-games", str(max_games), "--no-progress"]
    assert main([*arguments, "--openings", "none"]) == 0
    output = capsys.readouterr().out
    assert RATING_LINE.search(output).group(6) == str(max_games)
    assert f"stopped after {max_games} games (--max-games {max_games}) " in output


def test_a_reference_file_claiming_a_shipped_version_is_named_as_the_files(
    tmp_path, capsys
):
    ladder = tmp_path / "mine.csv"
    ladder.write_text("scale,agent,rating,margin\n9x9-v1,random,0.0,0.0\n")
    arguments = ["rate", "random", "--reference", str(ladder), "--board-size", "7"]
    assert main([*arguments, "--games", "1", "--no-progress"]) == 0
    output = capsys.readouterr().out
    assert "on 9x9-v1" not in output
    assert f"on the scale of {ladder} (not the shipped 9x9-v1 it names)" in output


def test_a_rating_to_a_margin_starts_its_workers_once(monkeypatch):
    from agents.executors.local import InlineExecutor
    from gomoku_apps.arena import runner

    opened = []

    def open_counted(jobs, ray=None, worker_exit=None):
        opened.append(jobs)
        return InlineExecutor(worker_exit)

    monkeypatch.setattr(runner, "open_executor", open_counted)
    rated = rate_to_margin(
        Arena(TOY, seed=3, jobs=2), "random", TOY_SCALE, margin=1, max_games=12
    )
    assert len(rated.games) == 12  # three rounds of four games
    assert opened == [2]


class CountingArena(Arena):
    """An arena that counts the games it plays."""

    played: list[int]

    def play(self, tasks, on_result=None, stop=None):
        self.played += [task.index for task in tasks]
        return super().play(tasks, on_result, stop)


def test_a_resumed_rating_plays_only_the_missing_games_and_ends_the_same(tmp_path):
    full = tmp_path / "full"
    whole = rate_to_margin(
        Arena(TOY, seed=5, records_dir=full), "mcts:simulations=10", TOY_SCALE, 300
    )
    stopped = tmp_path / "stopped"
    stopped.mkdir()
    kept = len(whole.games) // 2
    for index in range(kept):  # the first half recorded, the second not yet
        name = f"game-{index:05d}.txt"
        (stopped / name).write_text((full / name).read_text())
    forfeited = stopped / "game-00001.txt"  # a forfeit is played again
    forfeited.write_text(
        forfeited.read_text().replace("\n# Opening", "\n# Forfeit: white\n# Opening")
    )
    arena = CountingArena(TOY, seed=5, records_dir=stopped, overwrite_records=True)
    arena.played = []
    resumed = rate_to_margin(arena, "mcts:simulations=10", TOY_SCALE, 300, resume=True)
    assert arena.played == [1, *range(kept, len(whole.games))]
    assert resumed.rating == whole.rating
    assert [g.outcome.moves for g in resumed.games] == [
        g.outcome.moves for g in whole.games
    ]
    assert len(list(stopped.glob("game-*.txt"))) == len(whole.games)
    # Another agent's run cannot go on from these records.
    other = Arena(TOY, seed=5, records_dir=stopped, overwrite_records=True)
    with pytest.raises(ValueError, match="is not this run's game 0"):
        rate_to_margin(other, "random", TOY_SCALE, 300, resume=True)
    with pytest.raises(ValueError, match="needs the records folder"):
        rate_to_margin(Arena(TOY), "random", TOY_SCALE, 300, resume=True)


def test_rate_resume_goes_on_in_a_folder_that_holds_records(tmp_path, capsys):
    ladder = tmp_path / "toy.csv"
    ladder.write_text(
        "rank,agent,rating,margin\n1,random,0.0,0.0\n2,heuristic,700.0,50.0\n"
    )
    records = tmp_path / "games"
    arguments = ["rate", "random", "--reference", str(ladder), "--board-size", "7"]
    arguments += ["--games", "2", "--records", str(records), "--no-progress"]
    assert main(arguments) == 0
    first = capsys.readouterr().out
    assert main(arguments) == 2  # the folder is not empty
    assert "is not empty" in capsys.readouterr().err
    (records / "game-00003.txt").unlink()
    assert main([*arguments, "--resume"]) == 0
    assert capsys.readouterr().out == first
    assert (records / "game-00003.txt").is_file()


def test_replayed_games_count_once_and_a_rating_that_only_replays_stops(
    tmp_path, capsys
):
    """Alpha-beta against alpha-beta and the heuristic from one opening replays its
    games: they weigh what they are worth as independent games, and once a round only
    replays earlier games the rating stops, saying why, before its margin."""
    ladder = tmp_path / "toy.csv"
    ladder.write_text(
        "rank,agent,rating,margin\n1,alphabeta:nodes=30,300.0,20.0\n"
        "2,alphabeta:nodes=300,600.0,30.0\n3,heuristic,700.0,40.0\n"
    )
    arguments = ["rate", "alphabeta:nodes=100", "--reference", str(ladder)]
    arguments += ["--board-size", "7", "--win-length", "4", "--openings", "none"]
    assert main([*arguments, "--margin", "50", "--seed", "1", "--no-progress"]) == 0
    output = capsys.readouterr().out
    games = int(RATING_LINE.search(output).group(6))
    assert games < 100 and "the last round only replayed earlier games" in output
    worth = re.search(r"alphabeta:nodes=300: (\d+) games, worth ([\d.]+)", output)
    assert worth and float(worth.group(2)) < int(worth.group(1)) / 1.5
    assert int(RATING_LINE.search(output).group(4)) > 50
