"""The Agent protocol every baseline follows, and the simplest agent that follows it
(:class:`RandomAgent`: uniform over the legal moves, reproducible under a seed).

An agent is a plain policy: give it the observation dict that a PettingZoo Gomoku env
hands the agent to move, get back a legal action. That one method lets the same object
play in a PettingZoo loop, serve as the opponent inside the Gymnasium env, and sit in the
arena.

>>> import gomoku_env
>>> from agents import RandomAgent
>>> env = gomoku_env.env(board_size=9)
>>> env.reset(seed=0)
>>> agent = RandomAgent(seed=0)
>>> observation, *_ = env.last()
>>> env.step(agent.act(observation))
"""

from __future__ import annotations

import warnings
from typing import Any, Protocol, runtime_checkable

import numpy as np

from gomoku_env.config import GameConfig


@runtime_checkable
class Agent(Protocol):
    """A Gomoku policy.

    ``reset`` starts a new game (and reseeds the agent when a seed is given); ``act``
    returns a legal action for the position in the observation, which always belongs to
    the agent to move (its ``action_mask`` has at least one 1).
    """

    def reset(self, seed: int | None = None) -> None:
        """Forget the previous game; reseed when ``seed`` is given."""
        ...

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """A legal action for the position in this PettingZoo observation."""
        ...


class AgentFailedError(RuntimeError):
    """An agent that was built fine but failed while starting or playing (an external
    engine that exited, refused a command or fell silent).

    The spec itself was good, so :func:`agents.specs.parse.make_agent` passes this error
    on unchanged, and the game loop and the arena forfeit the agent's game with it as
    the detail instead of refusing the match.
    """


def legal_actions(observation: dict[str, np.ndarray]) -> np.ndarray:
    """The legal actions in an observation; a clear error when there is none."""
    actions = np.flatnonzero(observation["action_mask"])
    if actions.size == 0:
        raise ValueError("the observation has no legal action: is this agent to move?")
    return actions


@runtime_checkable
class TimedAgent(Protocol):
    """An agent whose thinking time per move can be set from outside.

    The Gomocup brain (and anything else that plays under a clock) sets
    ``time_per_move`` before each ``act`` call: a wall-clock budget in seconds, or None
    for the agent's own budget (a number of simulations, a depth). An agent honours it
    by stopping its search once the budget is spent and answering with the best move
    found so far; when it also has a simulation or depth budget, whichever runs out
    first stops the search. Agents that do not think (random) need not have it.
    """

    time_per_move: float | None


class RandomAgent:
    """Plays a legal move chosen uniformly at random.

    Args:
        seed: seeds the agent's own ``numpy.random.Generator``; ``reset(seed)`` reseeds.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        return int(self._rng.choice(legal_actions(observation)))


class OtherRulesWarning(UserWarning):
    """A trained network plays under other rules than it was trained for."""


def warn_if_other_rules(
    network: str, trained: dict[str, Any], config: GameConfig
) -> None:
    """Warn once, in one line, when ``network`` (a name for the message) was trained
    (``trained``: its file's ``board_size``, ``win_length`` and ``rule``, where
    stored) for other rules than ``config``'s: it still plays, but weaker than its
    figures say, and a network trained for four in a row plays five without knowing."""
    played = {
        "board_size": config.board_size,
        "win_length": config.win_length,
        "rule": config.rule.value,
    }
    differ = [
        f"{key.replace('_', ' ')} {trained[key]} (here {played[key]})"
        for key in played
        if trained.get(key) is not None and trained[key] != played[key]
    ]
    if differ:
        warnings.warn(
            f"{network} was trained for {', '.join(differ)}: expect it to play "
            "weaker than on its own rules (weights=NAME_OR_FILE picks another)",
            OtherRulesWarning,
            stacklevel=3,
        )


def warm_up(agent: object) -> bool:
    """Run ``agent.warm_up()`` when the agent has one (a tree search compiles its
    kernels there, so that compiling is not counted in a timed move); whether it had."""
    method = getattr(agent, "warm_up", None)
    if not callable(method):
        return False
    method()
    return True
