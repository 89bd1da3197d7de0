"""Head-to-head matches on the game loop, for measuring strength in and after training.

Colours alternate game by game, and each pair of games starts from the same varied
opening (the env's ``random_opening`` stones near the centre, drawn from the pair's
seed), so neither side profits from the first move or from one lucky opening. A draw
counts as half a win. The agents here are our own: a forfeit is a bug, so it raises
instead of counting as a loss (the arena, which plays anyone's agents, scores them).
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.base import Agent
from agents.game import COLORS, GameOutcome, play_game
from gomoku_env.config import GameConfig


class ForfeitError(RuntimeError):
    """An agent in a match forfeited a game (crashed or answered an illegal move)."""


@dataclass(frozen=True)
class MatchScore:
    """Results from the first agent's point of view; scores of shares add up."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    wins_as_black: int = 0
    games_as_black: int = 0
    seconds: tuple[float, float] = (0.0, 0.0)

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game for the first agent, a draw counting one half."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def __add__(self, other: MatchScore) -> MatchScore:
        return MatchScore(
            self.wins + other.wins,
            self.draws + other.draws,
            self.losses + other.losses,
            self.wins_as_black + other.wins_as_black,
            self.games_as_black + other.games_as_black,
            (self.seconds[0] + other.seconds[0], self.seconds[1] + other.seconds[1]),
        )

    @classmethod
    def of_game(cls, outcome: GameOutcome, first_is_black: bool) -> MatchScore:
        """The score of one game in which the first agent had black or white."""
        first = COLORS[0] if first_is_black else COLORS[1]
        won = outcome.winner == first
        lost = outcome.winner not in (first, None)
        seconds = outcome.seconds if first_is_black else outcome.seconds[::-1]
        return cls(
            int(won),
            int(outcome.winner is None),
            int(lost),
            int(first_is_black and won),
            int(first_is_black),
            (seconds[0], seconds[1]),
        )


def play_match(
    first: Agent,
    second: Agent,
    config: GameConfig,
    games: int,
    seed: int = 0,
    random_opening: int = 2,
) -> MatchScore:
    """``games`` games between two agents, alternating colours, openings in pairs.

    Raises:
        ForfeitError: an agent crashed or answered an illegal move.
    """
    total = MatchScore()
    for game in range(games):
        first_is_black = game % 2 == 0
        black, white = (first, second) if first_is_black else (second, first)
        pair_seed = seed + game // 2
        outcome = play_game(
            black,
            white,
            config,
            seeds=(pair_seed, pair_seed + 1),
            random_opening=random_opening,
            opening_seed=pair_seed,
        )
        if outcome.forfeit is not None:
            raise ForfeitError(
                f"game {game}: {outcome.forfeit} forfeited by {outcome.reason}: "
                f"{outcome.detail}"
            )
        total += MatchScore.of_game(outcome, first_is_black)
    return total
