"""Agents that misbehave in the brain and the play window (loaded by path)."""

import numpy as np


class SlowAlphaZero:
    """AlphaZero that answers its first move at once, then searches for a minute.

    It has no ``time_per_move``, so a brain's turn time cannot shorten its search.
    """

    def __init__(self, config=None, seed=None):
        from agents.alphazero.agent import AlphaZeroAgent

        self.agent = AlphaZeroAgent(config, simulations=None, time=60.0, seed=seed)
        self.moves = 0

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, observation):
        self.moves += 1
        if self.moves == 1:
            return int(np.flatnonzero(observation["action_mask"])[0])
        return self.agent.act(observation)


class Chatty:
    """Prints a point to stdout on every move, as a debugging agent might."""

    def __init__(self, config=None, seed=None):
        pass

    def reset(self, seed=None):
        pass

    def act(self, observation):
        print("7,7")
        return int(np.flatnonzero(observation["action_mask"])[-1])
