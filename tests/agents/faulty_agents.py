"""Agents that break the rules of play, for the game loop's and the arena's forfeits.

The arena loads them by file path (``python:PATH:Crashing``) in its worker processes.
"""

import time

import numpy as np

from agents import RandomAgent


class Crashing(RandomAgent):
    def act(self, observation):
        raise RuntimeError("boom")


class Occupied(RandomAgent):
    def act(self, observation):
        return int(np.flatnonzero(observation["action_mask"] == 0)[0])


class Slow(RandomAgent):
    def act(self, observation):
        time.sleep(2.0)
        return super().act(observation)


class Hanging(RandomAgent):
    def act(self, observation):
        while True:
            time.sleep(0.01)


class BadReset(RandomAgent):
    def reset(self, seed=None):
        raise KeyError("lost")


CLOSED = []


class Closing(RandomAgent):
    def close(self):
        CLOSED.append(self)
