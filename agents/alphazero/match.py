"""Head-to-head matches for measuring strength during and after training.

Colours alternate game by game, and each pair of games starts from the same varied
opening (the env's ``random_opening`` stones near the centre, drawn from the pair's
seed), so neither side profits from the first move or from one lucky opening. A draw
counts as half a win.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import gomoku_env
from agents.base import Agent
from gomoku_env.config import GameConfig


@dataclass
class MatchResult:
    """Results from the first agent's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    wins_as_black: int = 0
    games_as_black: int = 0
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game for the first agent, a draw counting one half."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


def play_game(
    black: Agent, white: Agent, config: GameConfig, seed: int, random_opening: int
) -> tuple[int, tuple[float, float]]:
    """One game: (+1 black won, -1 white won, 0 draw) and each side's seconds."""
    environment = gomoku_env.env(
        board_size=config.board_size,
        win_length=config.win_length,
        rule=config.rule.value,
        random_opening=random_opening,
    )
    environment.reset(seed=seed)
    players = {"black_0": black, "white_0": white}
    seconds = {"black_0": 0.0, "white_0": 0.0}
    black.reset(seed=seed)
    white.reset(seed=seed + 1)
    for name in environment.agent_iter():
        observation, _, termination, truncation, info = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        started = time.perf_counter()
        action = players[name].act(observation)
        seconds[name] += time.perf_counter() - started
        environment.step(action)
    winner = info.get("winner")
    outcome = {"black_0": 1, "white_0": -1}.get(winner, 0)
    return outcome, (seconds["black_0"], seconds["white_0"])


def play_match(
    first: Agent,
    second: Agent,
    config: GameConfig,
    games: int,
    seed: int = 0,
    random_opening: int = 2,
) -> MatchResult:
    """``games`` games between two agents, alternating colours, openings in pairs."""
    result = MatchResult()
    for game in range(games):
        first_is_black = game % 2 == 0
        black, white = (first, second) if first_is_black else (second, first)
        outcome, (black_seconds, white_seconds) = play_game(
            black, white, config, seed + game // 2, random_opening
        )
        first_outcome = outcome if first_is_black else -outcome
        result.wins += first_outcome == 1
        result.draws += first_outcome == 0
        result.losses += first_outcome == -1
        result.games_as_black += first_is_black
        result.wins_as_black += first_is_black and first_outcome == 1
        first_seconds = black_seconds if first_is_black else white_seconds
        result.seconds[0] += first_seconds
        result.seconds[1] += black_seconds + white_seconds - first_seconds
    return result
