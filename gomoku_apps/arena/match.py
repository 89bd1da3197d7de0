"""The Arena: matches between agents from varied openings with alternating colours.

>>> from gomoku_env import GameConfig
>>> arena = Arena(GameConfig(board_size=7), openings="none", seed=1)
>>> match = arena.match("random", "random", games=4)
>>> sum(match.tally(name).games for name in match.names)
8

Games come in pairs from the same opening, each agent black once, so an opening that
favours one colour favours both agents equally. Openings are drawn from the built-in
book for the board size (see :mod:`gomoku_apps.arena.openings`) in an order that the seed
decides. With ``jobs > 1`` games run in worker processes started with ``spawn``: a
script that runs parallel matches must guard its entry point with
``if __name__ == "__main__":``. With ``ray`` they run on a Ray cluster, with the same
results for the same seed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from agents.base import AgentFailedError
from agents.executors import Executor
from agents.executors.ray_cluster import import_ray
from agents.scales.stats import ScoreSummary, summarize
from agents.specs.parse import make_agent
from gomoku_apps.arena.openings import Opening, load_openings, shuffled
from gomoku_apps.arena.records import prepare_records_dir, write_records
from gomoku_apps.arena.results import (
    Tally,
    ThinkingTime,
    distinct_games,
    effective_games,
    forfeits,
    tally,
    thinking_time,
)
from gomoku_apps.arena.runner import (
    GameResult,
    GameTask,
    ResultCallback,
    RunStoppedError,
    StopRule,
    game_seeds,
    open_workers,
    release_agent,
    run_tasks,
)
from gomoku_apps.arena.sprt import SPRT, SPRTDecision
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number

MAX_GAMES = 100_000
"""Games one match (or one pairing of a ladder or rating) may ask for: every task is
built before the first game, so a larger count is refused before it allocates."""
MAX_MOVE_TIME = 3600.0
"""The longest per-move time limit, in seconds (a clock past this overflows)."""


def local_job_limit() -> int:
    """Worker processes a local run may start: this machine's CPUs (at least 2). Each
    worker holds its own agents (a network, a search tree), so more would only share
    the cores and multiply the memory."""
    return max(2, os.cpu_count() or 1)


def player_names(specs: Sequence[str]) -> list[str]:
    """Display names for ``specs``: the spec itself, with ``#2``… on repeats."""
    names: list[str] = []
    for spec in specs:
        name, copy = spec, 1
        while name in names:
            copy += 1
            name = f"{spec}#{copy}"
        names.append(name)
    return names


@dataclass(frozen=True)
class MatchResult:
    """The games of an A-vs-B match and what they say about A."""

    names: tuple[str, str]
    specs: tuple[str, str]
    config: GameConfig
    games: tuple[GameResult, ...]
    sprt: SPRT | None = None
    sprt_decision: SPRTDecision | None = None
    stopped: str | None = None
    """Why the match ended before its games did (a Ctrl-C, a dead worker); None if not."""

    def tally(self, name: str, color: str | None = None) -> Tally:
        """W/D/L of player ``name``, overall or as one colour."""
        return tally(self.games, name, color)

    def summary(self, confidence: float = 0.95) -> ScoreSummary:
        """A's score and Elo difference against B, with intervals as wide as the
        games are worth: a game replayed move for move adds nothing
        (:func:`~gomoku_apps.arena.results.effective_games`)."""
        record = self.tally(self.names[0])
        worth = effective_games(self.games)
        return summarize(record.wins, record.draws, record.losses, confidence, worth)

    def thinking_time(self, name: str) -> ThinkingTime:
        """Time player ``name`` used."""
        return thinking_time(self.games, name)

    def forfeits(self, name: str | None = None) -> list[GameResult]:
        """Forfeited games (by ``name`` when given)."""
        return forfeits(self.games, name)

    def distinct_games(self) -> int:
        """Games that are not a replay of another (the same colours and moves)."""
        return distinct_games(self.games)


Player = tuple[str, str]
"""A player of a run: its display name and its agent spec."""


def pair_task(
    k: int,
    players: tuple[Player, Player],
    openings: Sequence[Opening],
    config: GameConfig,
    seed: int,
    move_time_limit: float | None = None,
    first_index: int = 0,
) -> GameTask:
    """Game ``k`` of :func:`pair_tasks`, built alone (a long run builds its tasks a
    chunk at a time instead of all before the first game)."""
    (black, black_spec), (white, white_spec) = players[k % 2], players[1 - k % 2]
    index = first_index + k
    return GameTask(
        index,
        black,
        white,
        black_spec,
        white_spec,
        openings[(k // 2) % len(openings)],
        game_seeds(seed, index),
        config,
        move_time_limit,
    )


def pair_tasks(
    first_index: int,
    players: tuple[Player, Player],
    games: int,
    openings: Sequence[Opening],
    config: GameConfig,
    seed: int,
    move_time_limit: float | None = None,
) -> list[GameTask]:
    """Tasks for ``games`` games between two (name, spec) players.

    Game ``k`` uses opening ``k // 2`` (cycling) with the first player black when ``k``
    is even; task indices start at ``first_index`` and seed each game's agents.
    """
    return [
        pair_task(k, players, openings, config, seed, move_time_limit, first_index)
        for k in range(games)
    ]


def pairing_tasks(
    arena: Arena, pairings: Iterable[tuple[Player, Player]], games_per_pair: int
) -> list[GameTask]:
    """Tasks for ``games_per_pair`` games of each pairing, numbered one after another."""
    check_number(
        "games_per_pair", games_per_pair, minimum=1, maximum=MAX_GAMES, integer=True
    )
    tasks: list[GameTask] = []
    for players in pairings:
        tasks += pair_tasks(
            len(tasks),
            players,
            games_per_pair,
            arena.openings,
            arena.config,
            arena.seed,
            arena.move_time_limit,
        )
    return tasks


class Arena:
    """Plays matches between agent specs under one set of rules, openings and seeds.

    Args:
        config: the rules of every game.
        openings: ``"book"`` (the built-in book), ``"none"`` (empty board) or the path
            of an opening file.
        seed: decides the opening order and every agent's seed, game by game.
        jobs: games at once: worker processes (1 plays in this process), or Ray
            workers (None: one per CPU of the Ray cluster).
        ray: None to play on this machine, or the address of a Ray cluster to play on
            (``local`` starts one here, ``auto`` joins a running one); needs the
            ``ray`` extra.
        move_time_limit: seconds per move; a slower move forfeits the game.
        records_dir: when given, every game is saved there as a record (the folder
            is created at once; ValueError if it cannot be written, or if it is not
            empty and ``overwrite_records`` is False).
        overwrite_records: let the records replace the files of a non-empty folder.
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        openings: str | Path | None = "book",
        seed: int = 0,
        jobs: int | None = 1,
        move_time_limit: float | None = None,
        records_dir: str | Path | None = None,
        ray: str | None = None,
        overwrite_records: bool = False,
    ) -> None:
        if jobs is not None or ray is None:
            limit = local_job_limit() if ray is None else None
            check_number("jobs", jobs, minimum=1, maximum=limit, integer=True)
        if ray is not None:
            import_ray()
        if move_time_limit is not None:
            check_number(
                "move_time_limit", move_time_limit, above=0, maximum=MAX_MOVE_TIME
            )
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be an int >= 0, got {seed!r}")
        self.config = config or GameConfig()
        self.openings = shuffled(load_openings(openings, self.config), seed)
        self.seed = seed
        self.jobs = jobs
        self.ray = ray
        self.move_time_limit = move_time_limit
        self._workers: Executor | None = None
        self.records_dir = (
            None
            if records_dir is None
            else prepare_records_dir(records_dir, overwrite_records)
        )

    def check_specs(self, specs: Sequence[str]) -> None:
        """Build each agent once here, so a bad spec fails before any game starts.

        A bad spec (an unknown agent or option, a missing program) raises ValueError.
        An engine that starts but fails (exits or refuses at START) is no bad spec: its
        games are forfeited, each with the engine's error as the detail.
        """
        for spec in specs:
            try:
                agent = make_agent(spec, self.config)
            except AgentFailedError:
                continue
            release_agent(agent)

    def play(
        self,
        tasks: Sequence[GameTask],
        on_result: ResultCallback | None = None,
        stop: StopRule | None = None,
    ) -> list[GameResult]:
        """Run ``tasks`` with this arena's jobs (on Ray if asked); save records if asked.

        Raises:
            RunStoppedError: the run ended early; the finished games' records are saved.
        """
        try:
            results = run_tasks(
                tasks, self.jobs, on_result, stop, self.ray, self._workers
            )
        except RunStoppedError as stopped:
            self._save(stopped.results)
            raise
        self._save(results)
        return results

    @contextlib.contextmanager
    def workers(self) -> Iterator[None]:
        """Keep one set of workers for every :meth:`play` inside: a run of many
        small rounds (:func:`~gomoku_apps.arena.rate.rate_to_margin`) starts its
        processes once, not once a round."""
        if self._workers is not None:
            yield  # already inside: the outer block's workers serve
            return
        with open_workers(self.jobs, self.ray) as executor:
            self._workers = executor
            try:
                yield
            finally:
                self._workers = None

    def _save(self, results: Sequence[GameResult]) -> None:
        if self.records_dir is not None:
            write_records(results, self.records_dir, self.config)

    def match(
        self,
        a: str,
        b: str,
        games: int = 100,
        sprt: SPRT | None = None,
        on_result: ResultCallback | None = None,
    ) -> MatchResult:
        """Play up to ``games`` games of ``a`` against ``b``; an SPRT may stop early.

        A Ctrl-C or a worker process that dies ends the match early with the games
        finished so far, and :attr:`MatchResult.stopped` says why.
        """
        check_number("games", games, minimum=1, maximum=MAX_GAMES, integer=True)
        self.check_specs((a, b))
        names = tuple(player_names((a, b)))
        players = ((names[0], a), (names[1], b))
        tasks = pair_tasks(
            0,
            players,
            games,
            self.openings,
            self.config,
            self.seed,
            self.move_time_limit,
        )
        stop = None if sprt is None else _SPRTStop(sprt, names[0])
        stopped = None
        try:
            results = self.play(tasks, on_result, stop)
        except RunStoppedError as error:
            results, stopped = error.results, error.reason
        decision = None
        if sprt is not None:
            record = tally(results, names[0])
            decision = sprt.decide(record.wins, record.draws, record.losses)
        games = tuple(results)
        return MatchResult(names, (a, b), self.config, games, sprt, decision, stopped)


class _SPRTStop:
    """Stop rule for a match: keeps a running tally of A so each check is O(1)."""

    def __init__(self, sprt: SPRT, name: str) -> None:
        self.sprt, self.name = sprt, name
        self.counts = [0, 0, 0]
        self.seen = 0

    def __call__(self, results: Sequence[GameResult]) -> bool:
        for result in results[self.seen :]:
            self.counts[2 - int(2 * result.score(self.name))] += 1
        self.seen = len(results)
        wins, draws, losses = self.counts
        return self.sprt.decide(wins, draws, losses) != SPRTDecision.CONTINUE
