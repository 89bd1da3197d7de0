"""The one game loop: two agents play a game through the PettingZoo env.

Everything that makes agents play each other goes through here: the arena's matches
and ladder (:mod:`gomoku_apps.arena.runner`), AlphaZero's evaluation and the strength
benchmarks (:mod:`agents.training.head_to_head`), and the play window, whose background
thread asks agents for moves with :func:`choose_move`, the loop's per-move step.

An agent forfeits (loses, and the outcome says so) when its ``reset`` or ``act``
raises (``"crash"``; ``SystemExit`` and ``KeyboardInterrupt`` too, while a real Ctrl-C
of the user stops the game with :class:`UserInterrupt`), when ``act`` returns an
action that is not legal in the observation (``"illegal_move"``), or when it takes
longer than the per-move limit (``"timeout"``). The limit is checked after every move;
where the platform allows (Unix, main thread) an alarm also interrupts a move that
hangs in Python code, so one stuck agent cannot stall a match. An exception may name
its own reason in a ``forfeit_reason`` attribute (see :func:`forfeit_reason`): the
external engine agent's errors for an engine that answered an illegal point or stayed
silent count as ``"illegal_move"`` and ``"timeout"``, not as crashes.

>>> from agents import RandomAgent
>>> from gomoku_env import GameConfig
>>> outcome = play_game(RandomAgent(), RandomAgent(), GameConfig(board_size=7),
...                     seeds=(1, 2))
>>> outcome.winner in ("black", "white", None), outcome.forfeit
(True, None)
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from pettingzoo import AECEnv

import gomoku_env
from agents.base import Agent
from gomoku_env.aec_env import AGENTS
from gomoku_env.config import GameConfig
from gomoku_env.errors import IllegalMoveError
from gomoku_env.legal import check_action

COLORS = ("black", "white")
FORFEIT_REASONS = ("crash", "illegal_move", "timeout")


class MoveTimeoutError(Exception):
    """Raised inside an agent's move when the per-move alarm fires."""


class UserInterrupt(KeyboardInterrupt):
    """The user's Ctrl-C during an agent's move or reset: it stops the game.

    An agent that raises ``KeyboardInterrupt`` itself forfeits instead.
    """


AGENT_FAILURES = (Exception, SystemExit, KeyboardInterrupt)
"""What an agent's ``reset`` or ``act`` may raise and forfeit by (a crash)."""


@contextmanager
def _user_interrupts() -> Iterator[None]:
    """Let a Ctrl-C raise :class:`UserInterrupt` meanwhile (main thread, where
    Python's own handler is installed), telling it apart from an agent's raise."""
    usable = (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )
    if not usable:
        yield
        return

    def _raise_interrupt(signum: int, frame: object) -> None:
        raise UserInterrupt

    signal.signal(signal.SIGINT, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@dataclass(frozen=True)
class GameOutcome:
    """How one game ended, by colour.

    Attributes:
        winner: ``"black"``, ``"white"`` or None for a draw.
        reason: how the game ended: the env's reason, one of
            :data:`gomoku_env.outcome.END_REASONS` (the loop sets no move limit, so
            never ``"move_limit"``), or for a forfeit one of :data:`FORFEIT_REASONS`.
        forfeit: the colour that forfeited, or None.
        detail: what went wrong in a forfeit (the exception, the bad action, the time).
        moves: every action of the game, the opening included.
        seconds: thinking time of (black, white) in seconds.
        move_counts: moves chosen by (black, white), the opening excluded.
    """

    winner: str | None
    reason: str
    forfeit: str | None
    detail: str
    moves: tuple[int, ...]
    seconds: tuple[float, float]
    move_counts: tuple[int, int]


@dataclass(frozen=True)
class MoveChoice:
    """One agent's answer to one position: a legal action, or why it forfeits.

    Attributes:
        action: the legal action chosen, None on a forfeit.
        seconds: time the agent took.
        forfeit: None, or one of :data:`FORFEIT_REASONS`.
        detail: what went wrong in a forfeit.
    """

    action: int | None
    seconds: float
    forfeit: str | None = None
    detail: str = ""


@contextmanager
def _move_alarm(limit: float | None) -> Iterator[None]:
    usable = (
        limit is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def _raise_timeout(signum: int, frame: object) -> None:
        raise MoveTimeoutError

    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _legal_action(action: object, mask: np.ndarray) -> int | None:
    """``action`` as an int when it is a legal integer action, else None."""
    try:
        index = check_action(action, mask.size)
    except (TypeError, IllegalMoveError):
        return None
    return index if mask[index] else None


def forfeit_reason(error: BaseException) -> str:
    """The forfeit an agent's exception counts as: ``"crash"`` unless it says otherwise.

    An exception says otherwise with a ``forfeit_reason`` attribute naming one of
    :data:`FORFEIT_REASONS` (as the Gomocup engine agent's timeout and illegal-move
    errors do).
    """
    reason = getattr(error, "forfeit_reason", None)
    return reason if reason in FORFEIT_REASONS else "crash"


def choose_move(
    agent: Agent,
    observation: dict[str, np.ndarray],
    move_time_limit: float | None = None,
) -> MoveChoice:
    """Ask ``agent`` for its move in ``observation``: the loop's per-move step.

    Never raises for the agent's faults: a crash, an illegal action or a move slower
    than ``move_time_limit`` seconds come back as a forfeit.
    """
    start = time.perf_counter()
    try:
        with _user_interrupts(), _move_alarm(move_time_limit):
            action = agent.act(observation)
    except MoveTimeoutError:
        detail = f"no move within {move_time_limit} s"
        return MoveChoice(None, time.perf_counter() - start, "timeout", detail)
    except UserInterrupt:
        raise
    except AGENT_FAILURES as error:
        detail = f"{type(error).__name__}: {error}"
        seconds = time.perf_counter() - start
        return MoveChoice(None, seconds, forfeit_reason(error), detail)
    seconds = time.perf_counter() - start
    if move_time_limit is not None and seconds > move_time_limit:
        detail = f"move took {seconds:.3f} s (limit {move_time_limit} s)"
        return MoveChoice(None, seconds, "timeout", detail)
    legal = _legal_action(action, observation["action_mask"])
    if legal is None:
        detail = f"returned {action!r}, not a legal action"
        return MoveChoice(None, seconds, "illegal_move", detail)
    return MoveChoice(legal, seconds)


def forfeit_outcome(
    side: int,
    reason: str,
    detail: str,
    moves: tuple[int, ...],
    seconds: tuple[float, float] = (0.0, 0.0),
    move_counts: tuple[int, int] = (0, 0),
) -> GameOutcome:
    """The outcome of a game that the player of colour index ``side`` forfeited."""
    if reason not in FORFEIT_REASONS:
        raise ValueError(
            f"unknown forfeit reason {reason!r}; expected {FORFEIT_REASONS}"
        )
    return GameOutcome(
        COLORS[1 - side], reason, COLORS[side], detail, moves, seconds, move_counts
    )


def _reset_agents(
    agents: Sequence[Agent], seeds: Sequence[int | None], moves: tuple[int, ...]
) -> GameOutcome | None:
    """Reset both agents; a forfeit outcome for the first one whose reset fails."""
    for side, (agent, seed) in enumerate(zip(agents, seeds, strict=True)):
        try:
            with _user_interrupts():
                agent.reset(seed=seed)
        except UserInterrupt:
            raise
        except AGENT_FAILURES as error:
            detail = f"reset: {type(error).__name__}: {error}"
            return forfeit_outcome(side, forfeit_reason(error), detail, moves)
    return None


def _play_out(
    env: AECEnv, agents: Sequence[Agent], move_time_limit: float | None
) -> GameOutcome:
    """Play the env's game to its end (or to a forfeit) and say how it ended."""
    seconds, counts = [0.0, 0.0], [0, 0]
    info: dict = {}
    for name in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        side = AGENTS.index(name)
        choice = choose_move(agents[side], observation, move_time_limit)
        seconds[side] += choice.seconds
        if choice.forfeit is not None:
            moves = tuple(env.unwrapped.board.moves)
            return forfeit_outcome(
                side,
                choice.forfeit,
                choice.detail,
                moves,
                tuple(seconds),
                tuple(counts),
            )
        counts[side] += 1
        env.step(choice.action)
    moves = tuple(env.unwrapped.board.moves)
    return GameOutcome(
        info["winner"], info["reason"], None, "", moves, tuple(seconds), tuple(counts)
    )


def play_game(
    black: Agent,
    white: Agent,
    config: GameConfig,
    opening: Sequence[int] = (),
    move_time_limit: float | None = None,
    *,
    seeds: tuple[int | None, int | None] = (None, None),
    random_opening: int = 0,
    opening_seed: int | None = None,
) -> GameOutcome:
    """Play one game and report how it ended.

    Args:
        black, white: the players; each is reset (``reset(seed)``) before the game.
        config: the rules.
        opening: actions played before the agents move.
        move_time_limit: seconds per move; a slower move forfeits the game.
        seeds: the (black, white) seeds given to the agents' ``reset``.
        random_opening: extra random stones near the centre after ``opening``, drawn
            from ``opening_seed`` (see :func:`gomoku_env.env`).
    """
    env = gomoku_env.env(
        config=config, opening=list(opening), random_opening=random_opening
    )
    env.reset(seed=opening_seed)
    try:
        start = tuple(env.unwrapped.board.moves)
        crashed = _reset_agents((black, white), seeds, start)
        return crashed or _play_out(env, (black, white), move_time_limit)
    finally:
        env.close()
