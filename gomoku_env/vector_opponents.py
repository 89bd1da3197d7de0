"""The other side of the vector env's games: which opponent answers which game, and
how it is asked.

:class:`VectorOpponents` holds the opponents of :class:`gomoku_env.vector_env.
GomokuVectorEnv`: none for the random opponent (the compiled step plays it), one
shared object with ``act_batch`` (a self-play snapshot, the ``"heuristic"`` spec: one
call for all pending games), one agent per game from any other spec (reset when its
game starts), or one shared Agent or callable. It turns the learner's planes into the
opponent's view and asks for the replies; the env checks and plays them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gomoku_env.config import GameConfig
from gomoku_env.opponents import (
    AdaptiveOpponent,
    BatchOpponent,
    OpponentLike,
    resolve_opponent,
)
from gomoku_env.planes import (
    FORBIDDEN,
    LAST_MOVE,
    OBSERVER_IS_BLACK,
    OPPONENT_STONES,
    OWN_STONES,
    PLANE_COUNT,
)

OPPONENT_VIEW_ORDER = [OPPONENT_STONES, OWN_STONES, *range(LAST_MOVE, PLANE_COUNT)]
"""The learner's planes seen from the other side: the two stone planes swap places."""


def opponent_view(planes: np.ndarray, forbidden: np.ndarray) -> np.ndarray:
    """Channels-last ``planes`` (games, N, N, PLANE_COUNT) of the learner, seen by the
    opponent: stones swapped, colour plane flipped, and black's forbidden points
    (``forbidden``, games x cells) in the forbidden plane."""
    view = planes[..., OPPONENT_VIEW_ORDER]
    view[..., OBSERVER_IS_BLACK] = 1 - view[..., OBSERVER_IS_BLACK]
    view[..., FORBIDDEN] = forbidden.reshape(view.shape[:-1])
    return view


class VectorOpponents:
    """The opponents of ``games`` vector env slots, built from ``opponent``.

    Attributes:
        random: the random opponent, which the compiled step plays (no agents).
        agents: the opponent objects: one shared by all games, or one per game.
        batched: ``agents[0]`` answers every pending game in one ``act_batch`` call.
    """

    def __init__(self, opponent: OpponentLike, config: GameConfig, games: int) -> None:
        self.random = isinstance(opponent, str) and opponent == "random"
        self.batched = self._per_game = False
        self.agents: list[Any] = []
        self._adaptive: AdaptiveOpponent | None = None
        if self.random:
            return
        first = (
            opponent
            if isinstance(opponent, BatchOpponent)
            else resolve_opponent(opponent, config)
        )
        self.batched = isinstance(first, BatchOpponent)
        self._per_game = isinstance(opponent, str) and not self.batched
        if self.batched:
            self.agents = [first]
        elif self._per_game:
            others = [resolve_opponent(opponent, config) for _ in range(games - 1)]
            self.agents = [first, *others]
        else:
            self.agents = [first] * games
        # Asked once: a protocol check costs microseconds, and games end every step.
        if self.batched and isinstance(first, AdaptiveOpponent):
            self._adaptive = first

    def reset(self, seeds: np.ndarray, bound: int) -> None:
        """Reseed the agents, the n-th from ``seeds[n]`` (below ``bound``)."""
        for agent, seed in zip(self.agents, seeds, strict=False):
            agent.reset(seed=int(seed % bound))

    def ask(
        self,
        games: np.ndarray,
        planes: np.ndarray,
        masks: np.ndarray,
        new_games: np.ndarray,
    ) -> np.ndarray:
        """The actions (int64, one per game) for ``games``, seen as ``planes`` (the
        opponent's view) with legal ``masks``; the per-game agents of ``new_games``
        (a boolean per game: its first reply) are reset first."""
        if self.batched:
            replies = self.agents[0].act_batch(planes, masks, games)
        else:
            if self._per_game:
                for game in games[new_games]:
                    self.agents[game].reset()
            replies = [
                self.agents[game].act({"observation": p, "action_mask": m})
                for game, p, m in zip(games, planes, masks, strict=True)
            ]
        return np.asarray(replies).astype(np.int64).reshape(games.size)

    def report_results(
        self, finished: np.ndarray, rewards: np.ndarray
    ) -> dict[str, np.ndarray]:
        """Tell a shared :class:`~gomoku_env.opponents.AdaptiveOpponent` the learner's
        score in each ``finished`` game (from its ``rewards``); its info items in
        Gymnasium's vector form (an array and a ``_key`` mask each), none from
        other opponents."""
        shared = self._adaptive
        if shared is None:
            return {}
        games = np.flatnonzero(finished)
        entries = shared.game_results(games, (rewards[games] + 1) / 2)
        infos: dict[str, np.ndarray] = {}
        for key in dict.fromkeys(key for entry in entries for key in entry):
            values = np.empty(finished.size, dtype=object)
            for game, entry in zip(games, entries, strict=True):
                values[game] = entry.get(key)
            infos[key] = values
            infos[f"_{key}"] = finished
        return infos
