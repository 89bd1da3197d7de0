"""A PettingZoo wrapper that counts the actions reaching the env against the mask.

The env ends a game on an illegal move by itself (reason ``"illegal_move"``), which a
learner that ignores the mask could mistake for an ordinary loss. Training code that
claims to respect the action mask wraps the env in :class:`IllegalActionCounter` and
checks afterwards that ``illegal_actions`` stayed 0: the count is taken at the env, below
any library's own wrappers, so no library-side masking bug can hide from it.

>>> import gomoku_env
>>> from gomoku_env.action_counter import IllegalActionCounter
>>> env = IllegalActionCounter(gomoku_env.env(board_size=5, win_length=4))
>>> env.reset(seed=0)
>>> env.step(12)
>>> env.step(12)  # occupied: counted, then the env ends the game as usual
>>> env.actions, env.illegal_actions
(2, 1)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper


class IllegalActionCounter(BaseWrapper):
    """Passes every call through; counts actions and those the mask forbade.

    Attributes:
        actions: actions given for a live agent (the ``None`` of a finished agent's
            last step is not an action).
        illegal_actions: those that were off the board or 0 in the agent's mask.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self.actions = 0
        self.illegal_actions = 0

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            self.actions += 1
            mask = self.observe(agent)["action_mask"]
            if not _allowed(action, mask):
                self.illegal_actions += 1
        super().step(action)


def _allowed(action: Any, mask: Any) -> bool:
    try:
        index = int(action)
    except (TypeError, ValueError):
        return False
    return 0 <= index < len(mask) and bool(mask[index])
