"""SearchSettings: the game's rules and the search's knobs as one named structure.

Built once per tree from its :class:`gomoku_env.GameConfig` and
:class:`agents.search.SearchConfig` (the rule parsed to its code there, once), and
handed whole to every compiled kernel, which reads its fields by name. Every field is a
plain ``int``, ``float`` or ``bool``, so numba compiles each kernel once for all trees.
"""

from __future__ import annotations

from typing import NamedTuple

from agents.search.config import SearchConfig
from gomoku_env.config import GameConfig


class SearchSettings(NamedTuple):
    """What the kernels need to know about the game and the search."""

    board_size: int
    win_length: int
    rule_code: int  # gomoku_env.kernels' code of the rule (FREESTYLE, ..., RENJU)
    candidate_distance: int  # 0: every legal point; d > 0: points near a stone
    tactical: bool  # expand only the win in one, or the blocks of the opponent's
    puct: bool  # PUCT with priors; False: UCT (unvisited edges first)
    exploration: float
    fpu: float  # PUCT value of an unvisited edge
    virtual_loss: float
    tactical_rollouts: bool = False  # the RolloutEvaluator's kind, set for each run


def search_settings(game: GameConfig, config: SearchConfig) -> SearchSettings:
    """The settings of a search of ``game`` with ``config`` (the rollout kind is the
    evaluator's: a rollout run replaces ``tactical_rollouts``)."""
    return SearchSettings(
        board_size=int(game.board_size),
        win_length=int(game.win_length),
        rule_code=int(game.rule.code),
        candidate_distance=int(config.candidate_distance),
        tactical=bool(config.tactical),
        puct=config.formula == "puct",
        exploration=float(config.exploration),
        fpu=float(config.fpu),
        virtual_loss=float(config.virtual_loss),
    )
