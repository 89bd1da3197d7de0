"""The ladder: round robin, ratings anchored at random, Markdown/CSV/PNG reports."""

from __future__ import annotations

import csv
import io
import textwrap

import pytest

from gomoku_apps.arena import Arena, run_ladder
from gomoku_apps.arena.bradley_terry import PairResidual, fit_ratings
from gomoku_apps.arena.ladder import pair_counts
from gomoku_apps.arena.ladder_report import (
    ladder_csv,
    ladder_markdown,
    plot_residuals,
    write_ladder,
)
from gomoku_apps.arena.results import games_between, replay_counts
from gomoku_env import GameConfig


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    path = tmp_path_factory.mktemp("ladder") / "weak_agents.py"
    path.write_text(
        textwrap.dedent(
            """
            from agents import RandomAgent

            class Crashing(RandomAgent):
                def act(self, observation):
                    raise RuntimeError("boom")
            """
        )
    )
    arena = Arena(GameConfig(board_size=7), seed=5)
    return run_ladder(arena, ["random", "random", f"python:{path}:Crashing"], 6)


def test_round_robin_plays_every_pair(ladder):
    names = ladder.names
    assert len(ladder.games) == 3 * 6
    for i, name in enumerate(names):
        for opponent in names[i + 1 :]:
            assert ladder.head_to_head(name, opponent).games == 6
    wins, draws = pair_counts(ladder.games, names)
    assert wins.sum() + draws.sum() / 2 == len(ladder.games)


def test_ratings_are_anchored_and_ordered(ladder):
    ratings = ladder.ratings
    assert ratings.anchor == "random" and ratings.rating("random") == 0
    crashing = ladder.names[2]
    assert ladder.ranked()[-1] == crashing
    assert ratings.rating(crashing) < -200


def test_reports(ladder, tmp_path):
    rows = list(csv.DictReader(io.StringIO(ladder_csv(ladder))))
    assert [row["agent"] for row in rows] == ladder.ranked()
    assert sum(int(row["games"]) for row in rows) == 2 * len(ladder.games)
    markdown = ladder_markdown(ladder)
    assert "`random` = 0" in markdown and "| 3 |" in markdown
    assert "6/6" in markdown  # random beat the crashing agent in all 6 games
    paths = write_ladder(ladder, tmp_path / "out" / "ladder")
    assert [p.name for p in paths] == ["ladder.md", "ladder.csv", "ladder.png"]
    assert paths[2].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert paths[0].read_text() == markdown


def test_the_residual_plot_draws_the_pairs_and_refuses_none(tmp_path):
    inside = PairResidual("a", "b", 100, 100, 0.62, 0.60, 0.52, 0.68)
    outside = PairResidual("b", "c", 100, 40, 0.90, 0.70, 0.62, 0.78)
    assert not inside.outside and outside.outside
    path = tmp_path / "residuals.png"
    plot_residuals([inside, outside], "toy", path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="no pair"):
        plot_residuals([], "toy", tmp_path / "none.png")
    assert not (tmp_path / "none.png").exists()


def test_ladder_rejects_bad_input():
    arena = Arena(GameConfig(board_size=7))
    with pytest.raises(ValueError, match="at least two"):
        run_ladder(arena, ["random"])
    with pytest.raises(ValueError, match="anchor 'heuristic'"):
        run_ladder(arena, ["random", "random"], 2, anchor="heuristic")


def test_games_replayed_move_for_move_count_once_in_the_intervals(tmp_path):
    """Two copies of an agent that always plays the first legal point, from the empty
    board, play two distinct games (one per colour) six times over: the fit keeps its
    ratings and widens their gap's interval as three-fold replays ask."""
    path = tmp_path / "first_legal.py"
    path.write_text(
        textwrap.dedent(
            """
            from agents import RandomAgent, legal_actions

            class FirstLegal(RandomAgent):
                def act(self, observation):
                    return int(legal_actions(observation)[0])
            """
        )
    )
    spec = f"python:{path}:FirstLegal"
    arena = Arena(GameConfig(board_size=7), openings="none", seed=2)
    ladder = run_ladder(arena, ["random", spec, spec], 6)
    first, second = ladder.names[1:]
    replayed = games_between(ladder.games, first, second)
    assert sorted(replay_counts(replayed)) == [3, 3]
    wins, draws = pair_counts(ladder.games, ladder.names)
    every_game = fit_ratings(ladder.names, wins, draws, "random")
    assert ladder.ratings.ratings == pytest.approx(every_game.ratings)
    assert ladder.ratings.gap(second, first)[1] > 1.3 * every_game.gap(second, first)[1]
