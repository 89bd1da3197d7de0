"""What a pattern-based agent saw when it chose a move, and how it reads its input.

Both :class:`agents.classic.heuristic.HeuristicAgent` and
:class:`agents.classic.alphabeta.AlphaBetaAgent` accept either a PettingZoo observation dict or
a :class:`gomoku_env.Board`, and keep a :class:`SearchReport` of their last decision for
overlays and logs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.patterns.pattern_state import PatternState, new_state
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.planes import board_from_observation


@dataclass(frozen=True)
class SearchReport:
    """The last decision of an agent.

    Attributes:
        move: the action chosen.
        score: its value for the mover (pattern score, or search value where wins are
            near ``agents.classic.alphabeta_search.WIN_SCORE`` and losses near its negative).
        principal_variation: the expected line of play starting with ``move``.
        nodes: positions searched (alpha-beta nodes plus VCF nodes; candidates for the
            heuristic).
        depth: the deepest completed alpha-beta iteration (1 for the heuristic).
        reason: how the move was found ("opening", "pattern", "vcf", "defence",
            "search").
        elapsed: seconds spent.
    """

    move: int
    score: int
    principal_variation: tuple[int, ...]
    nodes: int
    depth: int
    reason: str
    elapsed: float


def fitted_config(
    source: dict[str, np.ndarray] | Board, config: GameConfig
) -> GameConfig:
    """``config`` with the board size of ``source`` (an observation dict or a Board),
    for an agent built without a game: it plays whatever board it is shown, keeping
    its win length and rule (which an observation does not tell)."""
    if isinstance(source, Board):
        size = source.config.board_size
    elif isinstance(source, dict) and "observation" in source:
        size = int(np.shape(source["observation"])[0])
    else:
        return config
    if size == config.board_size:
        return config
    return GameConfig(size, config.win_length, config.rule)


def position_of(source: dict[str, np.ndarray] | Board, config: GameConfig) -> Board:
    """The board behind an observation dict, or ``source`` itself when it is a Board."""
    if isinstance(source, Board):
        if source.config != config:
            raise ValueError(
                f"board config {source.config} differs from the agent's config {config}"
            )
        if source.is_over:
            raise ValueError(f"the game on {source!r} is already over")
        return source
    if not isinstance(source, dict) or "observation" not in source:
        raise TypeError(
            "expected a PettingZoo observation dict or a Board, "
            f"got {type(source).__name__}"
        )
    return board_from_observation(source, config)


def pattern_state(board: Board) -> PatternState:
    """A fresh evaluator state for the position on ``board``."""
    config = board.config
    return new_state(
        board.cells, config.board_size, config.win_length, config.rule.code
    )
