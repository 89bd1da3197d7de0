"""The rating ladder: a round robin among agents, rated by Bradley-Terry with draws.

>>> from gomoku_env import GameConfig
>>> from gomoku_apps.arena.match import Arena
>>> arena = Arena(GameConfig(board_size=7), openings="none", seed=3)
>>> ladder = run_ladder(arena, ["random", "random"], games_per_pair=4)
>>> ladder.ratings.rating("random")
0.0

Every pair of agents plays ``games_per_pair`` games (colours alternating, openings from
the arena's book); the ratings are anchored at ``anchor`` (RandomAgent by default), so a
rating says how many Elo points an agent is above uniform random play under these rules.
A game that two deterministic agents replay move for move (their opening came round
again) counts once in the intervals.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.budget import Budget
from agents.scales.reference import CODE_AGENTS
from agents.specs.parse import make_agent, parse_spec
from gomoku_apps.arena.bradley_terry import Ratings, check_draw_model, fit_ratings
from gomoku_apps.arena.match import (
    Arena,
    pairing_tasks,
    player_names,
)
from gomoku_apps.arena.results import (
    Tally,
    ThinkingTime,
    games_between,
    head_to_head,
    replay_counts,
    tally,
    thinking_time,
)
from gomoku_apps.arena.runner import GameResult, GameTask, ResultCallback
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number

DEFAULT_ANCHOR = "random"


@dataclass(frozen=True)
class Ladder:
    """A finished round robin: its games, the specs and the fitted ratings."""

    names: tuple[str, ...]
    specs: tuple[str, ...]
    games: tuple[GameResult, ...]
    ratings: Ratings
    description: str

    def tally(self, name: str) -> Tally:
        """W/D/L of ``name`` over all its games."""
        return tally(self.games, name)

    def thinking_time(self, name: str) -> ThinkingTime:
        """Time ``name`` used over all its games."""
        return thinking_time(self.games, name)

    def ranked(self) -> list[str]:
        """Names from the highest rating to the lowest."""
        return sorted(self.names, key=self.ratings.rating, reverse=True)

    def head_to_head(self, name: str, opponent: str) -> Tally:
        """W/D/L of ``name`` in its games against ``opponent``."""
        return head_to_head(self.games, name, opponent)


def pair_counts(
    results: Sequence[GameResult], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """``wins[i, j]`` (i beat j) and symmetric ``draws[i, j]`` over ``results``."""
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    draws = np.zeros_like(wins)
    for result in results:
        black, white = index[result.black], index[result.white]
        if result.winner is None:
            draws[black, white] += 1
            draws[white, black] += 1
        elif result.winner == result.black:
            wins[black, white] += 1
        else:
            wins[white, black] += 1
    return wins, draws


def round_robin_tasks(
    arena: Arena, names: Sequence[str], specs: Sequence[str], games_per_pair: int
) -> list[GameTask]:
    """Tasks for every pair of players, numbered one after another."""
    players = zip(names, specs, strict=True)
    return pairing_tasks(arena, itertools.combinations(players, 2), games_per_pair)


def _check_ladder(
    names: Sequence[str], games_per_pair: int, anchor: str, draw_model: str
) -> None:
    if len(names) < 2:
        raise ValueError(f"a ladder needs at least two agents, got {list(names)}")
    check_number("games_per_pair", games_per_pair, minimum=1, integer=True)
    check_draw_model(draw_model)
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the agents {list(names)}")


def run_ladder(
    arena: Arena,
    specs: Sequence[str],
    games_per_pair: int = 20,
    anchor: str = DEFAULT_ANCHOR,
    on_result: ResultCallback | None = None,
    draw_model: str = "half",
) -> Ladder:
    """Play the round robin among ``specs`` in ``arena`` and fit the ratings.

    ``draw_model`` says how draws enter the fit (see :mod:`gomoku_apps.arena.bradley_terry`).

    Raises:
        ValueError: fewer than two specs, a bad ``games_per_pair``, a bad spec, or an
            ``anchor`` that is not one of the specs.
    """
    names = player_names(specs)
    _check_ladder(names, games_per_pair, anchor, draw_model)
    arena.check_specs(specs)
    tasks = round_robin_tasks(arena, names, specs, games_per_pair)
    results = arena.play(tasks, on_result)
    wins, draws = pair_counts(results, names)
    repeats = {
        (i, j): replay_counts(games_between(results, names[i], names[j]))
        for i, j in itertools.combinations(range(len(names)), 2)
    }
    config = arena.config
    description = (
        f"{config.board_size}x{config.board_size} {config.rule.value}, "
        f"win length {config.win_length}, {games_per_pair} games per pair, "
        f"seed {arena.seed}"
    )
    return Ladder(
        tuple(names),
        tuple(specs),
        tuple(results),
        fit_ratings(names, wins, draws, anchor, draw_model=draw_model, repeats=repeats),
        description,
    )


def check_work_budget(spec: str, config: GameConfig) -> None:
    """ValueError unless ``spec`` plays the same moves for the same seed on any
    machine, as an anchor of a scale must: no clock budget, no code or program of its
    own (``scripts/build_scale.py`` checks every anchor with it)."""
    name, _ = parse_spec(spec)
    if name in CODE_AGENTS:
        raise ValueError(f"anchor {spec!r} is code or a program: not reproducible here")
    budget = getattr(make_agent(spec, config), "budget", None)
    if isinstance(budget, Budget) and budget.time is not None:
        raise ValueError(
            f"anchor {spec!r} searches on a clock (time={budget.time:g}); give it a "
            "work budget (simulations=N, nodes=N) and time=none"
        )
