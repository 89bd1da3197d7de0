"""Arena matches: totals, colours, same results with any jobs, forfeits, records."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.game import GameOutcome
from agents.scales.stats import wilson_interval
from agents.specs.python_agent import resolve_target
from gomoku_apps.arena import SPRT, Arena, SPRTDecision
from gomoku_apps.arena.match import MatchResult
from gomoku_apps.arena.openings import describe
from gomoku_apps.arena.records import read_arena_record
from gomoku_apps.arena.report import format_match
from gomoku_apps.arena.results import effective_games
from gomoku_apps.arena.runner import GameResult
from gomoku_env import GameConfig
from tests.agents import faulty_agents

CONFIG = GameConfig(board_size=7)
FAULTY_AGENTS = faulty_agents.__file__


@pytest.fixture(scope="module")
def agent_file():
    return FAULTY_AGENTS


def _games(match):
    return [
        (g.black, g.white, g.opening, g.outcome.moves, g.winner) for g in match.games
    ]


def test_match_totals_and_colours_add_up():
    match = Arena(CONFIG, seed=2).match("random", "random", games=10)
    first, second = match.names
    assert match.names == ("random", "random#2")
    a, b = match.tally(first), match.tally(second)
    assert a.games == b.games == len(match.games) == 10
    assert (a.wins, a.draws, a.losses) == (b.losses, b.draws, b.wins)
    as_black, as_white = match.tally(first, "black"), match.tally(first, "white")
    assert as_black.games == as_white.games == 5
    assert as_black.wins + as_white.wins == a.wins
    assert [g.black for g in match.games[:2]] == [first, second]
    assert match.games[0].opening == match.games[1].opening
    assert match.thinking_time(first).moves > 0
    assert "score" in format_match(match)


def test_parallel_run_gives_the_same_results_as_sequential():
    sequential = Arena(CONFIG, seed=7, jobs=1).match("random", "random", games=12)
    parallel = Arena(CONFIG, seed=7, jobs=2).match("random", "random", games=12)
    other_seed = Arena(CONFIG, seed=8, jobs=1).match("random", "random", games=12)
    assert _games(parallel) == _games(sequential)
    assert _games(other_seed) != _games(sequential)


@pytest.mark.parametrize(
    ("attribute", "reason", "detail"),
    [
        ("Crashing", "crash", "RuntimeError: boom"),
        ("Occupied", "illegal_move", "not a legal action"),
        ("BadReset", "crash", "reset: KeyError"),
    ],
)
def test_faulty_agent_forfeits_every_game(agent_file, attribute, reason, detail):
    faulty = f"python:{agent_file}:{attribute}"
    match = Arena(CONFIG, seed=1).match("random", faulty, games=4)
    assert len(match.games) == 4
    assert len(match.forfeits(faulty)) == 4
    for game in match.games:
        assert (game.winner, game.forfeited_by) == ("random", faulty)
        assert game.outcome.reason == reason and detail in game.outcome.detail
    assert match.tally("random").wins == 4
    assert f"{faulty} forfeited ({reason}" in format_match(match)


def test_agents_are_closed_after_the_match(agent_file):
    Arena(CONFIG).match(f"python:{agent_file}:Closing", "random", games=2)
    closed = resolve_target(f"{agent_file}:CLOSED")
    assert len(closed) == 2  # the one built to check the spec, and the one that played


def test_slow_agent_forfeits_on_time(agent_file):
    slow = f"python:{agent_file}:Slow"
    match = Arena(CONFIG, move_time_limit=0.05).match(slow, "random", games=2)
    assert [g.outcome.reason for g in match.games] == ["timeout", "timeout"]
    assert match.tally(slow).losses == 2


def test_sprt_stops_a_decided_match_at_the_same_game_with_any_jobs(agent_file):
    faulty = f"python:{agent_file}:Crashing"
    test = SPRT(elo0=0, elo1=100)
    matches = [
        Arena(CONFIG, jobs=jobs).match("random", faulty, games=200, sprt=test)
        for jobs in (1, 2)
    ]
    for match in matches:
        assert match.sprt_decision is SPRTDecision.ACCEPT_H1
        assert 5 <= len(match.games) < 200
        assert [g.forfeited_by for g in match.games] == [faulty] * len(match.games)
        assert "H1 accepted" in format_match(match)
    assert _games(matches[0]) == _games(matches[1])


def test_records_are_written_and_read_back(tmp_path, agent_file):
    faulty = f"python:{agent_file}:Crashing"
    arena = Arena(CONFIG, seed=4, records_dir=tmp_path / "games")
    match = arena.match("random", "random", games=2)
    files = sorted((tmp_path / "games").glob("game-*.txt"))
    assert len(files) == 2
    record, notes = read_arena_record(files[1])
    game = match.games[1]
    assert (record.black, record.white, record.config) == (
        game.black,
        game.white,
        CONFIG,
    )
    assert record.moves == game.outcome.moves
    assert record.result == (game.outcome.winner or "draw")
    assert notes == {"Game": "1", "Opening": describe(game.opening, 7)}
    Arena(CONFIG, records_dir=tmp_path / "forfeits").match(faulty, "random", games=1)
    record, notes = read_arena_record(tmp_path / "forfeits" / "game-00000.txt")
    assert (record.reason, record.result) == ("crash", "white")
    assert (notes["Forfeit"], notes["ForfeitDetail"]) == ("black", "RuntimeError: boom")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"jobs": 0}, "jobs"),
        ({"seed": -1}, "seed"),
        ({"move_time_limit": 0}, "move_time_limit"),
        ({"openings": "/no/such/book.txt"}, "book.txt"),
    ],
)
def test_arena_rejects_bad_settings(kwargs, message):
    with pytest.raises((ValueError, FileNotFoundError), match=message):
        Arena(CONFIG, **kwargs)


def test_match_rejects_bad_specs_before_playing():
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        Arena(CONFIG).match("random", "nobody", games=2)
    with pytest.raises(ValueError, match="games"):
        Arena(CONFIG).match("random", "random", games=0)


ROGUE_AGENTS = Path(__file__).resolve().parents[1] / "rogue_agents.py"


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(
    ("attribute", "detail"),
    [("Exiting", "SystemExit: 3"), ("Interrupting", "KeyboardInterrupt")],
)
def test_an_agent_raising_system_exit_forfeits_and_the_match_goes_on(
    attribute, detail, jobs
):
    rogue = f"python:{ROGUE_AGENTS}:{attribute}"
    match = Arena(CONFIG, jobs=jobs).match("random", rogue, games=4)
    assert [g.forfeited_by for g in match.games] == [rogue] * 4
    assert all(detail in g.outcome.detail for g in match.games)
    assert match.stopped is None


def test_a_ctrl_c_stops_the_match_and_keeps_the_finished_games(tmp_path):
    rogue = f"python:{ROGUE_AGENTS}:CtrlCInThirdGame"
    arena = Arena(CONFIG, records_dir=tmp_path)
    match = arena.match("random", rogue, games=6)
    assert len(match.games) == 2 and match.stopped.startswith("interrupted")
    assert "interrupted after 2 of 6 games" in format_match(match)
    assert len(list(tmp_path.iterdir())) == 2


def test_a_worker_that_dies_ends_the_match_with_a_report():
    rogue = f"python:{ROGUE_AGENTS}:DyingInThirdGame"
    match = Arena(CONFIG, jobs=2).match("random", rogue, games=12)
    assert match.stopped.startswith("a worker process died")
    assert 1 <= len(match.games) < 12
    assert sorted({g.index for g in match.games}) == [g.index for g in match.games]
    assert "a worker process died" in format_match(match)


def test_the_report_counts_games_that_replay_another_once():
    def game(index: int, black: str, moves: tuple[int, ...]) -> GameResult:
        white = "b" if black == "a" else "a"
        outcome = GameOutcome("black", "five", None, "", moves, (0.1, 0.1), (3, 2))
        return GameResult(index, black, white, moves[:1], outcome)

    line = (24, 17, 25, 18, 26, 19, 27, 20, 28)
    games = (game(0, "a", line), game(1, "b", line), game(2, "a", line))
    match = MatchResult(("a", "b"), ("a", "b"), CONFIG, games)
    assert match.distinct_games() == 2  # the third game replays the first
    assert "distinct games: 2 of 3" in format_match(match)
    assert "as 1.8 independent ones" in format_match(match)
    # The interval is that of 9/5 games, wider than three independent ones allow.
    summary = match.summary()
    assert (summary.score_low, summary.score_high) == pytest.approx(
        wilson_interval(summary.score, 9 / 5)
    )
    assert summary.score_low < wilson_interval(summary.score, 3)[0]
    other = game(3, "a", (*line[:-1], 21))
    assert (
        MatchResult(("a", "b"), ("a", "b"), CONFIG, (*games, other)).distinct_games()
        == 3
    )
    # Worth as independent games: n² / Σ nₖ², 3² / (2² + 1²) for a game played twice.
    assert effective_games(games) == pytest.approx(9 / 5)
    assert effective_games([*games, other]) == pytest.approx(16 / 6)
    assert effective_games(games[:2]) == 2 and effective_games([]) == 0
