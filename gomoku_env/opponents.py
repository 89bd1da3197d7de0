"""Opponents for the single-agent envs: an Agent, a plain callable, or an agent spec.

The Gymnasium env plays the other side of the board with an object that has the
``agents.Agent`` shape (``act(observation) -> int`` and ``reset(seed)``). Users may hand
it one directly, a function ``f(observation_planes, action_mask) -> action``, or a spec
string such as ``"random"`` or ``"mcts:simulations=200"``.

The env layer sits below the agents and imports none of them. A spec string is handed to
the resolvers registered under the entry-point group ``gomoku_env.agent_specs``
(this distribution's pyproject.toml registers ``agents.specs.parse.make_agent``), which
builds the opponent.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

import numpy as np

from gomoku_env.config import GameConfig

PolicyFunction = Callable[[np.ndarray, np.ndarray], int]

AGENT_SPEC_GROUP = "gomoku_env.agent_specs"


@runtime_checkable
class OpponentAgent(Protocol):
    """The part of ``agents.Agent`` the envs use (repeated to keep imports one-way)."""

    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation: dict[str, np.ndarray]) -> int: ...


@runtime_checkable
class BatchOpponent(Protocol):
    """An opponent that answers the positions of many games in one call.

    The vector env (:class:`gomoku_env.vector_env.GomokuVectorEnv`) asks such an
    opponent for all its pending replies at once instead of one ``act`` per game;
    ``agents.HeuristicAgent`` is one.
    """

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        """Actions (games,) for channels-last ``planes`` (games, N, N, planes) with
        legal ``masks`` (games, N * N), the positions of vector env slots ``games``."""
        ...


@runtime_checkable
class AdaptiveOpponent(Protocol):
    """An opponent that follows the learner's results, such as the ``curriculum``
    spec (``agents.curriculum.CurriculumOpponent``): the single-agent envs tell it
    the learner's score in every game that ends and add its answer to that game's
    final info."""

    def game_results(
        self, games: np.ndarray, scores: np.ndarray
    ) -> list[dict[str, Any]]:
        """Take the learner's ``scores`` (1 a win, 0.5 a draw or a truncated game, 0
        a loss) in the games of slots ``games`` (0 in the Gymnasium env), which just
        ended; one dict per game, whose items join that game's final info."""
        ...


OpponentLike = OpponentAgent | PolicyFunction | str


class CallableOpponent:
    """Adapts ``f(observation_planes, action_mask) -> action`` to the Agent shape.

    ``reset(seed)`` is forwarded to the function's own ``reset`` when it has one, so a
    stateful callable object can still be reseeded by the env.
    """

    def __init__(self, function: PolicyFunction) -> None:
        self.function = function

    def reset(self, seed: int | None = None) -> None:
        reset = getattr(self.function, "reset", None)
        if callable(reset) and not inspect.isclass(self.function):
            reset(seed=seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        return self.function(observation["observation"], observation["action_mask"])

    def __repr__(self) -> str:
        return f"CallableOpponent({self.function!r})"


def resolve_opponent(
    opponent: Any, config: GameConfig, seed: int | None = None
) -> OpponentAgent:
    """The Agent-shaped opponent described by ``opponent`` for games of ``config``.

    Raises:
        TypeError: ``opponent`` is neither an Agent, a callable nor a spec string.
        ValueError: the spec names no registered agent or has bad options.
    """
    if isinstance(opponent, str):
        return _resolve_spec(opponent, config, seed)
    if isinstance(opponent, OpponentAgent):
        return opponent
    if callable(opponent):
        return CallableOpponent(opponent)
    raise TypeError(
        "opponent must be an Agent (act/reset), a callable "
        "(observation, action_mask) -> action, or an agent spec string; "
        f"got {opponent!r}"
    )


def _resolve_spec(spec: str, config: GameConfig, seed: int | None) -> OpponentAgent:
    """The opponent that the first registered spec resolver builds for ``spec``; a
    resolver is called as ``resolver(spec, config=GameConfig, seed=int | None)``."""
    resolvers = [entry.load() for entry in entry_points(group=AGENT_SPEC_GROUP)]
    if not resolvers:
        raise ValueError(
            f"cannot build the opponent {spec!r}: no agent library is installed "
            f"(none registers the entry-point group {AGENT_SPEC_GROUP!r}); install "
            "this package with `pip install -e .` or pass an Agent object"
        )
    return resolvers[0](spec, config=config, seed=seed)
