"""One arena game between two agents through the PettingZoo env, with forfeits, clocks.

An agent forfeits (loses, and the game is marked so) when its ``act`` raises
(``"crash"``), returns an action that is not legal in the observation
(``"illegal_move"``), or takes longer than the per-move limit (``"timeout"``). The limit
is checked after every move; where the platform allows (Unix, main thread) an alarm also
interrupts a move that hangs in Python code, so one stuck agent cannot stall a match.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

import gomoku_env
from agents.base import Agent
from gomoku_env.config import GameConfig

COLORS = ("black", "white")
FORFEIT_REASONS = ("crash", "illegal_move", "timeout")


class MoveTimeoutError(Exception):
    """Raised inside an agent's move when the per-move alarm fires."""


@dataclass(frozen=True)
class GameOutcome:
    """How one game ended, by colour.

    Attributes:
        winner: ``"black"``, ``"white"`` or None for a draw.
        reason: ``"five"``, ``"board_full"`` or one of :data:`FORFEIT_REASONS`.
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
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        return None
    index = int(action)
    return index if 0 <= index < mask.size and mask[index] else None


def _timed_move(
    agent: Agent, observation: dict, limit: float | None
) -> tuple[int | None, float, str | None, str]:
    """(action, seconds, forfeit reason or None, detail) of one move by ``agent``."""
    start = time.perf_counter()
    try:
        with _move_alarm(limit):
            action = agent.act(observation)
    except MoveTimeoutError:
        return None, time.perf_counter() - start, "timeout", f"no move within {limit} s"
    except Exception as error:
        return (
            None,
            time.perf_counter() - start,
            "crash",
            f"{type(error).__name__}: {error}",
        )
    seconds = time.perf_counter() - start
    if limit is not None and seconds > limit:
        return None, seconds, "timeout", f"move took {seconds:.3f} s (limit {limit} s)"
    legal = _legal_action(action, observation["action_mask"])
    if legal is None:
        return None, seconds, "illegal_move", f"returned {action!r}, not a legal action"
    return legal, seconds, None, ""


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


def play_game(
    black: Agent,
    white: Agent,
    config: GameConfig,
    opening: tuple[int, ...] = (),
    move_time_limit: float | None = None,
) -> GameOutcome:
    """Play one game from ``opening`` and report how it ended (agents already reset)."""
    env = gomoku_env.env(
        board_size=config.board_size,
        win_length=config.win_length,
        rule=config.rule.value,
        opening=list(opening),
    )
    env.reset()
    players = {"black_0": (0, black), "white_0": (1, white)}
    seconds, counts = [0.0, 0.0], [0, 0]
    forfeit, info = None, {}
    for name in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        side, agent = players[name]
        action, spent, reason, detail = _timed_move(agent, observation, move_time_limit)
        seconds[side] += spent
        if reason is not None:
            forfeit = (side, reason, detail)
            break
        counts[side] += 1
        env.step(action)
    moves = tuple(env.unwrapped.board.moves)
    env.close()
    if forfeit is not None:
        return forfeit_outcome(*forfeit, moves, tuple(seconds), tuple(counts))
    winner = info["winner"]
    color = None if winner is None else winner.split("_")[0]
    return GameOutcome(
        color, info["reason"], None, "", moves, tuple(seconds), tuple(counts)
    )
