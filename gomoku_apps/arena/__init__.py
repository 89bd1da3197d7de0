"""The arena: matches, sequential tests and the rating ladder for Gomoku agents.

>>> from gomoku_env import GameConfig
>>> from gomoku_apps.arena import Arena
>>> arena = Arena(GameConfig(board_size=7), openings="none")
>>> arena.match("random", "random", games=2).summary().games
2
"""

from agents.scales.stats import ScoreSummary, elo_from_score, summarize
from gomoku_apps.arena.bradley_terry import Ratings, fit_ratings
from gomoku_apps.arena.ladder import Ladder, run_ladder
from gomoku_apps.arena.match import Arena, MatchResult
from gomoku_apps.arena.runner import GameResult, GameTask
from gomoku_apps.arena.sprt import SPRT, SPRTDecision

__all__ = [
    "SPRT",
    "Arena",
    "GameResult",
    "GameTask",
    "Ladder",
    "MatchResult",
    "Ratings",
    "SPRTDecision",
    "ScoreSummary",
    "elo_from_score",
    "fit_ratings",
    "run_ladder",
    "summarize",
]
