"""An opponent curriculum: each game against an anchor of a rating scale that the
learner, at its running rating, is expected to score ``target`` against.

The package's rating scales (:mod:`agents.scales.reference`) are chains of agents on
work budgets, neighbours 100-200 Elo apart, from ``random`` up. Against an opponent a
little above its strength a learner wins about a third of its games: a dense signal
at every stage, where a fixed opponent is soon either unbeatable or beaten every time.
:class:`CurriculumOpponent` keeps the learner's running rating (the maximum-likelihood
rating of :func:`agents.scales.anchored_fit.anchored_rating`, as ``gomoku rate``
fits it, on the learner's latest ``window`` games against the anchors) and, for each
new game, picks the anchor whose expected score for the learner at that rating is
nearest ``target``: as the learner wins, the rating and the anchors move up. Within
``leeway`` Elo of that anchor's rating the cheapest anchor plays instead (by the
thinking time a move the scale lists): a rollout search of 50 ms a move and a noisy
heuristic of 0.3 ms a few dozen Elo apart teach about the same, and the learner's
own steps, not its opponent's, should take the CPU. A learner that meets one family
only learns to beat that family, though, so ``families`` above 1 takes the families
within the leeway in turn, game by game (cheapest family first), each game the
cheapest anchor of its family.

It is an opponent for the single-agent envs (``opponent="curriculum"``, or
``"curriculum:target=0.4,window=400"``): the Gymnasium env plays it through ``act``;
the vector env asks it for all its games' replies through ``act_batch`` (each game
slot its own anchor agent; an anchor that batches, such as ``heuristic``, answers all
its games in one call). Both envs report each finished game's score to
:meth:`CurriculumOpponent.game_results` and add its answer to that game's final info:
``opponent`` (the anchor's spec) and ``learner_rating``, so a training log is a
rating curve. The anchors' seeds come from the opponent's generator, which the envs
reseed from their own seed: the same seed draws the same opponents.

>>> from gomoku_env import GameConfig
>>> from agents.specs.parse import make_agent
>>> opponent = make_agent("curriculum", GameConfig(board_size=9), seed=1)
>>> opponent.anchor_for(0).spec
'mcts:simulations=4,tactical=false,rollout=random'
>>> info, = opponent.game_results(np.array([0]), np.array([1.0]))
>>> info["opponent"], info["learner_rating"] > 190
('mcts:simulations=4,tactical=false,rollout=random', True)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from agents.base import Agent
from agents.scales.anchored_fit import anchored_rating
from agents.scales.reference import Anchor, family, reference_scale
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_fields, option

AgentBuilder = Callable[[str, GameConfig, int | None], Agent]
"""Builds an agent from its spec for a game, seeded (``agents.specs.make_agent``)."""
SEED_BOUND = 2**63


@dataclass(frozen=True)
class CurriculumOptions:
    """The curriculum's spec options."""

    scale: str | None = option(
        None,
        help="the rating scale whose anchors are the opponents, e.g. 9x9-v1 (none: "
        "the newest for the board)",
    )
    target: float = option(
        0.35,
        minimum=0.05,
        maximum=0.95,
        help="the learner's expected score against each game's anchor at its running "
        "rating (0.35: an opponent that wins about two games in three)",
    )
    window: int = option(
        200,
        minimum=1,
        maximum=1_000_000,
        help="the learner's latest games that its running rating is fitted on",
    )
    leeway: float = option(
        75.0,
        minimum=0,
        maximum=400,
        help="Elo either side of the rating the target asks for within which the "
        "cheapest anchor plays (by the scale's ms a move); 0: the nearest anchor",
    )
    families: int = option(
        1,
        minimum=1,
        maximum=16,
        help="families within the leeway met in turn, game by game, cheapest "
        "family first (1: always the cheapest anchor)",
    )

    def __post_init__(self) -> None:
        check_fields(self)


class CurriculumOpponent:
    """Plays each game as the anchor of ``options.scale`` that suits the learner's
    running rating (see the module).

    Args:
        config: the game; it must be the scale's.
        build: makes an anchor's agent from its spec.
        options: the scale, the target score and the window.
        seed: seeds the generator that seeds the anchors.

    Raises:
        ValueError: no shipped scale of that name, or one for another game.
    """

    def __init__(
        self,
        config: GameConfig,
        build: AgentBuilder,
        options: CurriculumOptions | None = None,
        seed: int | None = None,
    ) -> None:
        self.config = config
        self.options = options or CurriculumOptions()
        scale = reference_scale(config.board_size, self.options.scale)
        if scale.config != config:
            raise ValueError(
                f"the curriculum's scale {scale.name} is rated on {scale.config}, "
                f"not on this env's game {config}"
            )
        self.scale = scale.name
        self.anchors: tuple[Anchor, ...] = tuple(
            sorted(scale.anchors, key=lambda anchor: anchor.rating)
        )
        self._ratings = np.array([anchor.rating for anchor in self.anchors])
        self._costs = [
            math.inf if anchor.ms_per_move is None else anchor.ms_per_move
            for anchor in self.anchors
        ]
        self._build = build
        self._results: deque[tuple[int, float]] = deque(maxlen=self.options.window)
        self.rating = float(self._ratings[0])
        """The learner's running rating on the scale (the weakest anchor's before any
        game)."""
        self._rng = np.random.default_rng(seed)
        self._chosen = 0  # games given an anchor: whose family's turn it is
        self._games: dict[int, tuple[int, Agent]] = {}
        self._batched: dict[int, Agent] = {}
        self._built: dict[tuple[int, int], Agent] = {}  # (slot, anchor): reused

    def reset(self, seed: int | None = None) -> None:
        """New games in every slot (the envs call it at their reset); reseed the
        anchors' generator and restart the families' turns when ``seed`` is given.
        The running rating is kept."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._chosen = 0
        self._games.clear()

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The move of the anchor playing the Gymnasium env's game (slot 0)."""
        _, agent = self._game(0)
        return int(agent.act(observation))

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        """The replies of the anchors playing the vector env's ``games`` slots;
        an anchor that batches answers all its games in one call."""
        replies = np.empty(len(games), dtype=np.int64)
        batched: dict[int, list[int]] = {}
        for row, slot in enumerate(games):
            index, agent = self._game(int(slot))
            if index in self._batched:
                batched.setdefault(index, []).append(row)
                continue
            observation = {"observation": planes[row], "action_mask": masks[row]}
            replies[row] = agent.act(observation)
        for index, rows in batched.items():
            chosen = self._batched[index].act_batch(
                planes[rows], masks[rows], np.asarray(games)[rows]
            )
            replies[rows] = chosen
        return replies

    def anchor_for(self, slot: int) -> Anchor:
        """The anchor playing the game in ``slot`` (chosen now if none is yet)."""
        index, _ = self._game(slot)
        return self.anchors[index]

    def game_results(
        self, games: np.ndarray, scores: np.ndarray
    ) -> list[dict[str, object]]:
        """Take the learner's ``scores`` (1 a win, 0.5 a draw, 0 a loss) in the games
        of slots ``games``, which ended; refit its rating; each game's info: the
        anchor it was played against and the learner's rating after it. The next
        game in each slot gets its anchor anew."""
        played = []
        for slot, score in zip(games, scores, strict=True):
            if not 0 <= score <= 1:
                raise ValueError(f"a game's score must be 0, 0.5 or 1, got {score!r}")
            index, _ = self._game(int(slot))
            self._results.append((index, float(score)))
            played.append(index)
            del self._games[int(slot)]
        self._refit()
        rating = round(self.rating, 1) + 0.0  # never -0.0
        return [
            {"opponent": self.anchors[index].spec, "learner_rating": rating}
            for index in played
        ]

    def _refit(self) -> None:
        """The learner's rating from its latest results (kept while it has none)."""
        if not self._results:
            return
        indices = np.array([index for index, _ in self._results])
        points = np.array([score for _, score in self._results])
        count = len(self.anchors)
        games = np.bincount(indices, minlength=count)
        scored = np.bincount(indices, weights=points, minlength=count)
        met = games > 0
        self.rating = anchored_rating(self._ratings[met], scored[met], games[met])

    def _choose(self) -> int:
        """The cheapest anchor within ``leeway`` of the rating at which the learner's
        expected score is the target (the nearest where none is that near; among
        equal costs, or costs the scale does not list, the nearest), of the family
        whose turn it is."""
        target = self.options.target
        wanted = self.rating + 400 * math.log10((1 - target) / target)
        distance = np.abs(self._ratings - wanted)
        near = np.flatnonzero(distance <= max(self.options.leeway, distance.min()))
        ranked = sorted(near, key=lambda k: (self._costs[k], distance[k], k))
        kinds = list(dict.fromkeys(family(self.anchors[k].spec) for k in ranked))
        turn = kinds[self._chosen % min(self.options.families, len(kinds))]
        self._chosen += 1
        return int(next(k for k in ranked if family(self.anchors[k].spec) == turn))

    def _game(self, slot: int) -> tuple[int, Agent]:
        """The anchor index and agent of the game in ``slot``, starting it (a chosen
        anchor, reset with a seed of the generator) if it has none. An anchor is
        built once for all slots if it batches, else once per slot; each game then
        resets it (building one, a search's tree, cost as much as its moves)."""
        if slot in self._games:
            return self._games[slot]
        index = self._choose()
        seed = int(self._rng.integers(SEED_BOUND))
        agent = self._batched.get(index) or self._built.get((slot, index))
        if agent is None:
            agent = self._build(self.anchors[index].spec, self.config, seed)
            if hasattr(agent, "act_batch"):
                self._batched[index] = agent
            else:
                self._built[slot, index] = agent
        agent.reset(seed=seed)
        self._games[slot] = (index, agent)
        return index, agent

    def __repr__(self) -> str:
        return (
            f"CurriculumOpponent({self.scale}, target={self.options.target}, "
            f"rating={self.rating:.0f})"
        )


def curriculum_from_spec(
    config: GameConfig, seed: int | None, build: AgentBuilder, **options: object
) -> CurriculumOpponent:
    """The ``curriculum`` spec's agent: :class:`CurriculumOpponent` with its
    :class:`CurriculumOptions` given as spec options."""
    return CurriculumOpponent(config, build, CurriculumOptions(**options), seed)
