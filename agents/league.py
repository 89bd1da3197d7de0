"""A league for self-play: the learner against frozen snapshots of itself mixed with
the curriculum's anchors, for any RL library.

Self-play against the live, changing policy breaks on-policy training (the opponent
changes inside a rollout) and cycles (the learner forgets how to beat its past
selves). :class:`LeagueOpponent` keeps a pool of frozen snapshots of the learner and
plays each new game against one of them, usually the newest, else an older one; a
share of the games (``anchor_share``) goes to the anchors of a
:class:`~agents.curriculum.CurriculumOpponent`, which keep the learner's running
rating on a fixed scale, so a training log stays a rating curve while the learner
plays itself. (On a game with no shipped rating scale, any batching agent, such as
the ``heuristic``, can play the anchor games instead.)

The league knows no RL library. A snapshot is any policy: an object with
``act_batch(planes, masks) -> actions`` (a network, answering all its games in one
call) or an :class:`~agents.base.Agent`. The user hands a zero-argument callable
``snapshot()`` that returns a frozen copy of the learner's current policy, and the
league calls it every ``snapshot_every`` finished games (it counts them through
``game_results``, which the envs call); a loop that prefers to push calls
:meth:`LeagueOpponent.add_snapshot`. A snapshot plays many games at once, so it must
keep no state of a game between moves (a network does not).

It is the opponent of the Gymnasium env (``opponent=league``: one league per env, its
game is slot 0) and of the vector env (one league for all slots, asked through
``act_batch``). Each finished game's info has ``opponent`` (the anchor's spec, or
``"snapshot 3"``: the third snapshot taken) and ``learner_rating``, the curriculum's
running rating, which only the anchors' games move. The draws come from the league's
generator, which the envs reseed from their seed: the same seed draws the same
opponents.

>>> from gomoku_env import GameConfig
>>> from gomoku_env.vector_env import GomokuVectorEnv
>>> first_legal = lambda planes, masks: masks.argmax(axis=1)
>>> league = LeagueOpponent(
...     GameConfig(board_size=9), LeagueOptions(snapshot_every=4, anchor_share=0.5)
... )
>>> league.add_snapshot(SnapshotPolicy(first_legal))
>>> env = GomokuVectorEnv(num_envs=8, opponent=league, board_size=9)
>>> observations, info = env.reset(seed=0)
>>> [league.opponent_for(slot).split(":")[0] for slot in range(4)]
['mcts', 'snapshot 1', 'snapshot 1', 'mcts']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from agents.base import Agent
from agents.curriculum import SEED_BOUND, CurriculumOpponent, CurriculumOptions
from gomoku_env.config import GameConfig
from gomoku_env.fields import option
from gomoku_env.opponents import AdaptiveOpponent

ANCHOR = 0
"""The snapshot number of a game that the curriculum's anchor plays."""


@runtime_checkable
class BatchPolicy(Protocol):
    """A policy that answers many positions in one call: a network."""

    def act_batch(self, planes: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Actions (n,) for channels-last ``planes`` (n, N, N, planes) and legal
        ``masks`` (n, N * N)."""
        ...


Policy = BatchPolicy | Agent


class SnapshotPolicy:
    """A function ``f(planes, masks) -> actions`` as a :class:`BatchPolicy`."""

    def __init__(self, function: Callable[[np.ndarray, np.ndarray], np.ndarray]):
        self.function = function

    def act_batch(self, planes: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.asarray(self.function(planes, masks))


@dataclass(frozen=True)
class LeagueOptions(CurriculumOptions):
    """The league's options, and its curriculum's (``scale``, ``target``,
    ``window``)."""

    snapshot_every: int = option(
        1_000,
        minimum=1,
        maximum=10**9,
        help="finished games between two calls of snapshot()",
    )
    pool_size: int = option(
        8, minimum=1, maximum=10_000, help="snapshots kept (the oldest goes first)"
    )
    latest_share: float = option(
        0.5,
        minimum=0,
        maximum=1,
        help="the share of snapshot games that the newest snapshot plays (the rest: "
        "an older one drawn uniformly)",
    )
    anchor_share: float = option(
        0.2,
        minimum=0,
        maximum=1,
        help="the share of games that the curriculum's anchors play (all of them "
        "while the pool is empty)",
    )


class AnchorOpponent(Agent, Protocol):
    """The opponent of the league's anchor games: an Agent that answers many games in
    one call (the vector env's ``BatchOpponent`` seam), such as the curriculum or
    the ``heuristic``. If it also has ``game_results`` (an ``AdaptiveOpponent``) it
    is told the anchor games' results, and its ``rating`` is reported."""

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray: ...


class LeagueOpponent:
    """Plays each game as a snapshot of the learner or an anchor (see the module).

    Args:
        config: the game.
        options: the cadence, the pool and the mix, and the curriculum's options.
        snapshot: returns a frozen copy of the learner's current policy; called every
            ``options.snapshot_every`` finished games (None: snapshots only come
            through :meth:`add_snapshot`).
        seed: seeds the draws and the anchors (the envs reseed it at reset).
        anchors: plays the anchor games; None: a :class:`CurriculumOpponent` of
            ``options`` on the newest rating scale of ``config`` (a game with no
            shipped scale needs another, such as the ``heuristic``).
    """

    def __init__(
        self,
        config: GameConfig,
        options: LeagueOptions | None = None,
        snapshot: Callable[[], Policy] | None = None,
        seed: int | None = None,
        anchors: AnchorOpponent | None = None,
    ) -> None:
        self.options = options or LeagueOptions()
        self.snapshot = snapshot
        if anchors is None:
            from agents.specs.parse import make_agent

            anchors = CurriculumOpponent(config, make_agent, self.options)
        self.anchors = anchors
        self.snapshots: dict[int, Policy] = {}
        """The pool by snapshot number (counted from 1), oldest first."""
        self.taken = 0
        self.finished_games = 0
        self._games: dict[int, tuple[int, Policy | None]] = {}
        self._rng = np.random.default_rng(seed)
        self.anchors.reset(seed=int(self._rng.integers(SEED_BOUND)))

    def reset(self, seed: int | None = None) -> None:
        """New games in every slot (the envs call it at their reset); reseed the
        draws and the anchors when ``seed`` is given. The pool and the rating are
        kept."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            seed = int(self._rng.integers(SEED_BOUND))
        self.anchors.reset(seed=seed)
        self._games.clear()

    def add_snapshot(self, policy: Policy) -> None:
        """Put a frozen copy of the learner's policy in the pool as the newest."""
        if not isinstance(policy, (BatchPolicy, Agent)):
            raise TypeError(
                "a snapshot must have act_batch(planes, masks) or be an Agent "
                f"(reset, act); got {policy!r}"
            )
        self.taken += 1
        self.snapshots[self.taken] = policy
        while len(self.snapshots) > self.options.pool_size:
            del self.snapshots[next(iter(self.snapshots))]

    def opponent_for(self, slot: int) -> str:
        """Who plays the game in ``slot`` (drawn now if none is yet): the anchor's
        spec (other anchors: their class's name) or ``"snapshot N"``."""
        number, _ = self._game(slot)
        if number != ANCHOR:
            return f"snapshot {number}"
        anchor_for = getattr(self.anchors, "anchor_for", None)
        return anchor_for(slot).spec if anchor_for else type(self.anchors).__name__

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The move of the opponent playing the Gymnasium env's game (slot 0)."""
        planes = observation["observation"][None]
        masks = observation["action_mask"][None]
        return int(self.act_batch(planes, masks, np.zeros(1, dtype=np.int64))[0])

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        """The replies in the vector env's ``games`` slots: the anchors' in one call,
        and each snapshot's for all its games in one."""
        games = np.asarray(games)
        drawn = [self._game(int(slot)) for slot in games]
        numbers = np.array([number for number, _ in drawn], dtype=np.int64)
        policies = dict(drawn)
        replies = np.empty(len(games), dtype=np.int64)
        for number, policy in policies.items():
            rows = np.flatnonzero(numbers == number)
            if policy is None:
                chosen = self.anchors.act_batch(planes[rows], masks[rows], games[rows])
            else:
                chosen = _play(policy, planes[rows], masks[rows])
            replies[rows] = chosen
        return replies

    def game_results(
        self, games: np.ndarray, scores: np.ndarray
    ) -> list[dict[str, object]]:
        """Take the learner's ``scores`` (1 a win, 0.5 a draw, 0 a loss) in the games
        of slots ``games``, which ended (the anchors' go to the curriculum, which
        refits the rating); each game's info: its opponent and the learner's rating.
        Takes a snapshot when ``snapshot_every`` more games have finished."""
        games, scores = np.asarray(games), np.asarray(scores, dtype=float)
        if not ((scores >= 0) & (scores <= 1)).all():
            raise ValueError(f"a game's score must be 0, 0.5 or 1, got {scores!r}")
        numbers = [self._game(int(slot))[0] for slot in games]
        anchored = np.array([number == ANCHOR for number in numbers], dtype=bool)
        anchor_infos = iter(self._anchor_results(games[anchored], scores[anchored]))
        rating = getattr(self.anchors, "rating", None)
        rated = {} if rating is None else {"learner_rating": round(rating, 1) + 0.0}
        infos: list[dict[str, object]] = [
            next(anchor_infos)
            if number == ANCHOR
            else {"opponent": f"snapshot {number}", **rated}
            for number in numbers
        ]
        for slot in games:
            del self._games[int(slot)]
        self._count_games(len(games))
        return infos

    def _anchor_results(
        self, games: np.ndarray, scores: np.ndarray
    ) -> list[dict[str, object]]:
        """The anchors' infos for their finished ``games``: an adaptive opponent's
        own answer (the curriculum refits the rating), else its class's name."""
        if isinstance(self.anchors, AdaptiveOpponent):
            return self.anchors.game_results(games, scores) if games.size else []
        return [{"opponent": type(self.anchors).__name__} for _ in games]

    def _count_games(self, finished: int) -> None:
        """Count ``finished`` games; a snapshot when they pass a multiple of the
        cadence (one, however many multiples one step passes)."""
        before = self.finished_games // self.options.snapshot_every
        self.finished_games += finished
        due = self.finished_games // self.options.snapshot_every > before
        if due and self.snapshot is not None:
            self.add_snapshot(self.snapshot())

    def _game(self, slot: int) -> tuple[int, Policy | None]:
        """The snapshot number and policy playing the game in ``slot`` (:data:`ANCHOR`
        and None for the anchors'), drawn if the slot has none; the policy is
        kept for the game even if the pool drops it meanwhile."""
        if slot not in self._games:
            number = self._draw()
            policy = self.snapshots.get(number)
            if isinstance(policy, Agent):
                policy.reset(seed=int(self._rng.integers(SEED_BOUND)))
            self._games[slot] = (number, policy)
        return self._games[slot]

    def _draw(self) -> int:
        """A new game's opponent: an anchor with probability ``anchor_share`` (or
        while the pool is empty), else the newest snapshot with probability
        ``latest_share``, else an older one drawn uniformly."""
        numbers = list(self.snapshots)
        if not numbers or self._rng.random() < self.options.anchor_share:
            return ANCHOR
        if len(numbers) == 1 or self._rng.random() < self.options.latest_share:
            return numbers[-1]
        return numbers[int(self._rng.integers(len(numbers) - 1))]

    def __repr__(self) -> str:
        return (
            f"LeagueOpponent({len(self.snapshots)} snapshots, anchor_share="
            f"{self.options.anchor_share}, anchors={self.anchors!r})"
        )


def _play(policy: Policy, planes: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``policy``'s actions for the rows: one call if it batches, else one ``act``
    each."""
    if isinstance(policy, BatchPolicy):
        return np.asarray(policy.act_batch(planes, masks)).astype(np.int64)
    return np.array(
        [
            policy.act({"observation": plane, "action_mask": mask})
            for plane, mask in zip(planes, masks, strict=True)
        ],
        dtype=np.int64,
    )
