"""Agents that misbehave in the brain, the play window and the arena (loaded by path)."""

import os
import signal
import sys
import time

import numpy as np

from agents import RandomAgent
from agents.budget import Budget


class SlowAlphaZero:
    """AlphaZero that answers its first move at once, then searches for a minute.

    It has no ``time_per_move``, so a brain's turn time cannot shorten its search.
    """

    def __init__(self, config=None, seed=None):
        from agents.alphazero.agent import AlphaZeroAgent

        self.agent = AlphaZeroAgent(config, budget=Budget(time=60.0), seed=seed)
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


class Exiting(RandomAgent):
    """Calls ``sys.exit`` instead of moving."""

    def act(self, observation):
        sys.exit(3)


class Interrupting(RandomAgent):
    """Raises KeyboardInterrupt itself: an agent's fault, not the user's Ctrl-C."""

    def act(self, observation):
        raise KeyboardInterrupt


class CtrlCInThirdGame(RandomAgent):
    """Plays two games, then the user presses Ctrl-C during its move."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.games = 0

    def reset(self, seed=None):
        super().reset(seed)
        self.games += 1

    def act(self, observation):
        if self.games == 3:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(30)
        return super().act(observation)


class DyingInThirdGame(CtrlCInThirdGame):
    """Plays two games, then ends its process at once (``os._exit``)."""

    def act(self, observation):
        if self.games == 3:
            os._exit(3)
        return super().act(observation)


class DyingOnce(RandomAgent):
    """Plays like RandomAgent, but the first one to move while ``marker`` does not exist
    creates it and ends its process (``os._exit``): one worker dies once in a run."""

    def __init__(self, seed=None, marker=""):
        super().__init__(seed)
        self.marker = marker

    def act(self, observation):
        try:
            with open(self.marker, "x"):
                pass
        except FileExistsError:
            return super().act(observation)
        os._exit(3)


class Dying(RandomAgent):
    """Ends its process (``os._exit``) on its first move, in every game."""

    def act(self, observation):
        os._exit(3)


class StallingAfterMarker(RandomAgent):
    """Creates ``marker`` on its first move, then thinks for a minute: a run that is
    surely busy with its games when the test presses Ctrl-C."""

    def __init__(self, seed=None, marker=""):
        super().__init__(seed)
        self.marker = marker

    def act(self, observation):
        with open(self.marker, "a"):
            pass
        time.sleep(60)
        return super().act(observation)
