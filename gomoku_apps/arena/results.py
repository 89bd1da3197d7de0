"""Tallies over game results: W/D/L per player and colour, thinking time, forfeits,
and what replayed games are worth."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from agents.game import COLORS
from gomoku_apps.arena.runner import GameResult


@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses of one player (forfeits included, as losses or wins)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game (nan before any game)."""
        return (self.wins + self.draws / 2) / self.games if self.games else float("nan")


def tally(results: Sequence[GameResult], name: str, color: str | None = None) -> Tally:
    """W/D/L of player ``name`` in ``results``, only as ``color`` when one is given."""
    if color is not None and color not in COLORS:
        raise ValueError(f"color must be one of {COLORS} or None, got {color!r}")
    wins = draws = losses = 0
    for result in results:
        if name not in (result.black, result.white):
            continue
        if color is not None and result.player(color) != name:
            continue
        score = result.score(name)
        wins += score == 1
        draws += score == 0.5
        losses += score == 0
    return Tally(wins, draws, losses)


def games_between(
    results: Sequence[GameResult], name: str, opponent: str
) -> list[GameResult]:
    """The games of player ``name`` against ``opponent``, in their order."""
    return [r for r in results if {r.black, r.white} == {name, opponent}]


def head_to_head(results: Sequence[GameResult], name: str, opponent: str) -> Tally:
    """W/D/L of player ``name`` in its games against ``opponent``."""
    return tally(games_between(results, name, opponent), name)


@dataclass(frozen=True)
class ThinkingTime:
    """Total seconds a player spent choosing its moves, and how many moves it chose."""

    seconds: float
    moves: int

    @property
    def per_move(self) -> float:
        """Mean seconds per move (0 before any move)."""
        return self.seconds / self.moves if self.moves else 0.0


def thinking_time(results: Sequence[GameResult], name: str) -> ThinkingTime:
    """The time player ``name`` used over ``results``."""
    seconds, moves = 0.0, 0
    for result in results:
        for side, color in enumerate(COLORS):
            if result.player(color) == name:
                seconds += result.outcome.seconds[side]
                moves += result.outcome.move_counts[side]
    return ThinkingTime(seconds, moves)


def game_identity(result: GameResult) -> tuple[str, str, tuple[int, ...]]:
    """What makes two games the same game: who had which colour, and every move."""
    return result.black, result.white, result.outcome.moves


def distinct_games(results: Sequence[GameResult]) -> int:
    """How many of ``results`` differ in who had which colour or in a move. Agents that
    play without randomness replay a game whenever its opening and colours come again,
    and a replayed game adds nothing to the evidence of the score."""
    return len({game_identity(result) for result in results})


def replay_counts(results: Sequence[GameResult]) -> list[int]:
    """How many times each distinct game of ``results`` was played, in the order
    each first appears (all ones when every game differs)."""
    return list(Counter(game_identity(result) for result in results).values())


def effective_games(results: Sequence[GameResult]) -> float:
    """As many independent games as ``results`` are worth for a mean score: with a
    game played nₖ times move for move, the mean's variance is ``v · Σ nₖ² / n²``, as
    for ``n² / Σ nₖ²`` independent games (``n`` when every game differs, 0 for none)."""
    counts = replay_counts(results)
    total = sum(counts)
    return total**2 / sum(count**2 for count in counts) if total else 0.0


def forfeits(
    results: Sequence[GameResult], name: str | None = None
) -> list[GameResult]:
    """The games forfeited (by ``name`` when given), in game order."""
    return [
        result
        for result in results
        if result.forfeited_by is not None and name in (None, result.forfeited_by)
    ]
