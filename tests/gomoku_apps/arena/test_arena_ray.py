"""Arena and ladder on Ray: the same games as locally for the same seed, a worker that
dies loses no game, the progress bar counts every game; without Ray, a clear error."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from gomoku_apps.arena import Arena, run_ladder
from gomoku_apps.cli.main import main
from gomoku_apps.cli.options import ProgressBar
from gomoku_env import GameConfig

CONFIG = GameConfig(board_size=7)
ROGUE_AGENTS = Path(__file__).resolve().parents[1] / "rogue_agents.py"


def _games(games):
    return [(g.index, g.black, g.white, g.opening, g.outcome.moves) for g in games]


@pytest.mark.usefixtures("ray_cluster")
class TestOnRay:
    def test_a_match_on_ray_plays_the_same_games_as_locally(self) -> None:
        local = Arena(CONFIG, seed=7).match("random", "heuristic", games=8)
        bar = ProgressBar("on ray", io.StringIO(), force=True)
        on_ray = Arena(CONFIG, seed=7, jobs=2, ray="local").match(
            "random", "heuristic", games=8, on_result=bar
        )
        assert _games(on_ray.games) == _games(local.games)
        first = local.names[0]
        assert on_ray.tally(first) == local.tally(first)
        assert on_ray.stopped is None
        assert "8/8 games" in bar.stream.getvalue()

    def test_a_ladder_on_ray_gives_the_same_games_and_ratings(self) -> None:
        specs = ["random", "heuristic", "random"]
        local = run_ladder(Arena(CONFIG, seed=3), specs, games_per_pair=4)
        on_ray = run_ladder(Arena(CONFIG, seed=3, ray="local"), specs, games_per_pair=4)
        assert _games(on_ray.games) == _games(local.games)
        assert on_ray.ratings == local.ratings

    def test_a_worker_killed_mid_match_loses_no_game(self, tmp_path: Path) -> None:
        marker = tmp_path / "died"
        rogue = f"python:{ROGUE_AGENTS}:DyingOnce,marker={marker}"
        on_ray = Arena(CONFIG, seed=5, jobs=2, ray="local").match(
            "random", rogue, games=10
        )
        assert marker.exists()  # a worker did die, in the middle of a game
        assert on_ray.stopped is None and len(on_ray.games) == 10
        # Locally, the marker now there, nobody dies: the same games, none lost.
        local = Arena(CONFIG, seed=5).match("random", rogue, games=10)
        assert _games(on_ray.games) == _games(local.games)
        assert on_ray.tally(rogue) == local.tally(rogue)

    def test_an_agent_that_kills_a_worker_now_and_then_still_finishes(self) -> None:
        # Locally this match stops (a dead worker breaks the process pool); on Ray
        # each replacement worker dies in its own third game, and the games go on.
        rogue = f"python:{ROGUE_AGENTS}:DyingInThirdGame"
        match = Arena(CONFIG, seed=1, jobs=1, ray="local").match(
            "random", rogue, games=6
        )
        assert match.stopped is None and len(match.games) == 6

    def test_a_game_that_kills_every_try_stops_the_match_with_a_report(self) -> None:
        rogue = f"python:{ROGUE_AGENTS}:Dying"
        match = Arena(CONFIG, jobs=1, ray="local").match("random", rogue, games=4)
        assert match.stopped.startswith(
            "a worker process died in each of the 4 tries of game 0"
        )
        assert match.games == ()

    def test_the_cli_arena_runs_on_ray(self, capsys: pytest.CaptureFixture) -> None:
        arguments = ["arena", "random", "random", "--board-size", "7", "--games", "4"]
        assert main([*arguments, "--no-progress", "--ray"]) == 0
        on_ray = capsys.readouterr().out.splitlines()
        assert main([*arguments, "--no-progress"]) == 0
        local = capsys.readouterr().out.splitlines()
        results = slice(0, 7)  # the W/D/L table and score; times differ
        assert on_ray[results] == local[results]


def test_without_ray_the_option_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    arguments = ["arena", "random", "random", "--board-size", "7", "--games", "2"]
    assert main([*arguments, "--ray"]) == 2
    assert "pip install 'gomoku_env[ray]'" in capsys.readouterr().err
    assert main([*arguments, "--no-progress"]) == 0  # without --ray, no Ray needed


def test_a_word_after_ray_that_is_no_address_is_refused(
    capsys: pytest.CaptureFixture,
) -> None:
    with pytest.raises(SystemExit):
        main(["ladder", "--ray", "random", "heuristic"])
    assert "'random' is not a Ray address" in capsys.readouterr().err
