"""Running arena games: one after another, in local processes or on Ray, reproducibly.

A :class:`GameTask` says everything one game needs: the two agent specs, the opening,
the seeds and the rules. Each worker process builds an agent once per (player, spec)
and calls ``reset(seed)`` before every game, so a game's result depends only on its
task, never on which process played it or what it played before: the same seed gives
the same results with any number of jobs (for agents that honour ``reset(seed)`` and
do not think against the clock).

Where the games run is an :class:`agents.executors.Executor`: this process, worker
processes started with ``spawn`` (safe with torch and numba threads, the same on every
platform), or Ray workers on a cluster. Agents must therefore come from specs
(registered agents or ``python:`` targets), which every process can rebuild.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from agents.base import Agent, warm_up
from agents.executors import Executor, WorkerLostError, open_executor
from agents.game import (
    COLORS,
    GameOutcome,
    forfeit_outcome,
    forfeit_reason,
    play_game,
)
from agents.specs.parse import make_agent
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number

Opening = tuple[int, ...]
ResultCallback = Callable[["GameResult", int, int], None]
"""Called as ``on_result(result, games_done, games_total)`` as games finish."""
StopRule = Callable[[Sequence["GameResult"]], bool]
"""Given the results so far in game order, True to end the run after the last one."""


@dataclass(frozen=True)
class GameTask:
    """One game to play: who has which colour, from which opening, with which seeds."""

    index: int
    black: str
    white: str
    black_spec: str
    white_spec: str
    opening: Opening
    seeds: tuple[int, int]
    config: GameConfig
    move_time_limit: float | None = None


@dataclass(frozen=True)
class GameResult:
    """A finished game: the task's players and opening with the outcome."""

    index: int
    black: str
    white: str
    opening: Opening
    outcome: GameOutcome

    def player(self, color: str | None) -> str | None:
        """The player who had ``color`` (None for None)."""
        return (
            None
            if color is None
            else (self.black if color == COLORS[0] else self.white)
        )

    @property
    def winner(self) -> str | None:
        """The winning player's name, None for a draw."""
        return self.player(self.outcome.winner)

    @property
    def forfeited_by(self) -> str | None:
        """The player who forfeited, or None."""
        return self.player(self.outcome.forfeit)

    def score(self, name: str) -> float:
        """1, ½ or 0: what the game scored for player ``name``."""
        if name not in (self.black, self.white):
            raise ValueError(f"{name!r} did not play game {self.index}")
        winner = self.winner
        return 0.5 if winner is None else float(winner == name)


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """The (black, white) agent seeds of game ``index`` in a run seeded ``seed``."""
    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(2)
    return int(state[0]), int(state[1])


_AGENT_CACHE: dict[tuple[str, str, GameConfig], Agent] = {}


def _agent(name: str, spec: str, config: GameConfig) -> Agent:
    """The agent of ``spec`` for this process, built once; an agent that can warm up
    (compile its kernels: :meth:`agents.search.mcts.MCTSAgent.warm_up`) does so now, so
    that compiling is not counted as thinking time in its first game."""
    key = (name, spec, config)
    if key not in _AGENT_CACHE:
        agent = make_agent(spec, config)
        warm_up(agent)
        _AGENT_CACHE[key] = agent
    return _AGENT_CACHE[key]


def release_agent(agent: Agent) -> None:
    """Call the agent's ``close()`` when it has one (engines hold a process)."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()


def close_agents() -> None:
    """Release and forget the agents that this process built for games."""
    agents = list(_AGENT_CACHE.values())
    _AGENT_CACHE.clear()
    for agent in agents:
        release_agent(agent)


def play_task(task: GameTask) -> GameResult:
    """Play the game of ``task`` (in whatever process calls this).

    An agent that cannot be built here (an engine that fails at START, say) forfeits
    the game, scored as :func:`agents.game.forfeit_reason` says, with the error as the
    detail; the next game tries to build it again.
    """
    players = ((task.black, task.black_spec), (task.white, task.white_spec))
    agents = []
    for side, (name, spec) in enumerate(players):
        try:
            agents.append(_agent(name, spec, task.config))
        except Exception as error:
            detail = f"start: {type(error).__name__}: {error}"
            reason = forfeit_reason(error)
            outcome = forfeit_outcome(side, reason, detail, task.opening)
            return GameResult(task.index, task.black, task.white, task.opening, outcome)
    outcome = play_game(
        *agents,
        task.config,
        task.opening,
        task.move_time_limit,
        seeds=task.seeds,
    )
    return GameResult(task.index, task.black, task.white, task.opening, outcome)


class RunStoppedError(Exception):
    """The run ended before its tasks did: the user's Ctrl-C, or a worker died.

    Attributes:
        reason: what happened, for the report.
        results: the finished games, in task order.
    """

    def __init__(self, reason: str, results: list[GameResult]) -> None:
        super().__init__(reason)
        self.reason, self.results = reason, results


def _interrupted(results: Sequence[GameResult], total: int) -> RunStoppedError:
    return RunStoppedError(
        f"interrupted after {len(results)} of {total} games", results
    )


class _OrderedCollector:
    """Gathers results arriving in any order and releases them in game order."""

    def __init__(self, stop: StopRule | None) -> None:
        self.ordered: list[GameResult] = []
        self.pending: dict[int, GameResult] = {}
        self.stopped = False
        self._stop = stop

    def add(self, position: int, result: GameResult) -> None:
        self.pending[position] = result
        while not self.stopped and len(self.ordered) in self.pending:
            self.ordered.append(self.pending.pop(len(self.ordered)))
            self.stopped = self._stop is not None and self._stop(self.ordered)

    def finished(self) -> list[GameResult]:
        """Every game finished so far, in task order (for a run cut short)."""
        return self.ordered + [self.pending[key] for key in sorted(self.pending)]


def _collect(
    executor: Executor,
    tasks: Sequence[GameTask],
    on_result: ResultCallback | None,
    collector: _OrderedCollector,
) -> None:
    """Play ``tasks`` on ``executor`` until all are done or the stop rule says so."""
    results = executor.map_unordered(play_task, tasks)
    try:
        for done, (position, result) in enumerate(results, 1):
            if on_result is not None:
                on_result(result, done, len(tasks))
            collector.add(position, result)
            if collector.stopped:
                break
    finally:
        results.close()


def _lost_worker_reason(
    error: WorkerLostError, tasks: Sequence[GameTask], finished: int
) -> str:
    if error.tries > 1:
        what = (
            f"a worker process died in each of the {error.tries} tries of game "
            f"{tasks[error.position].index} (does an agent end its process?)"
        )
    else:
        what = (
            "a worker process died (the agent ended its process), losing the games "
            "it played"
        )
    return f"{what}; stopped after {finished} of {len(tasks)} games"


def open_workers(jobs: int | None, ray: str | None = None) -> Executor:
    """The workers that play games (a context manager that ends them): ``jobs``
    processes here (1: this process), or Ray workers on the cluster ``ray``."""
    return open_executor(jobs, ray, worker_exit=close_agents)


def run_tasks(
    tasks: Sequence[GameTask],
    jobs: int | None = 1,
    on_result: ResultCallback | None = None,
    stop: StopRule | None = None,
    ray: str | None = None,
    executor: Executor | None = None,
) -> list[GameResult]:
    """Play ``tasks`` and return their results in task order.

    Args:
        jobs: games at once: worker processes (1 plays in this process), or Ray
            workers (None: one per CPU of the cluster).
        on_result: progress callback, called as games finish (in any order).
        stop: checked on the results in task order after each one; the run ends at the
            first game where it says True, and games after it are not reported, so a
            stopped run gives the same results with any number of jobs.
        ray: None to play on this machine, or the address of the Ray cluster to play
            on (``local`` starts one here): a Ray worker that dies is replaced and its
            games are played again.
        executor: workers already started (:func:`open_workers`) to play on, left
            open for the next call; ``jobs`` and ``ray`` are then unused.

    Raises:
        RunStoppedError: a Ctrl-C, or a worker process that died (an agent calling
            ``os._exit``), ended the run early; it carries the finished games.
    """
    if jobs is not None:
        check_number("jobs", jobs, minimum=1, integer=True)
    if ray is None and len(tasks) <= 1:
        jobs = 1  # one game: no worker process to start
    collector = _OrderedCollector(stop)
    try:
        if executor is not None:
            _collect(executor, tasks, on_result, collector)
        else:
            with open_workers(jobs, ray) as started:
                _collect(started, tasks, on_result, collector)
    except KeyboardInterrupt:
        raise _interrupted(collector.finished(), len(tasks)) from None
    except WorkerLostError as error:
        finished = collector.finished()
        reason = _lost_worker_reason(error, tasks, len(finished))
        raise RunStoppedError(reason, finished) from None
    return collector.ordered
