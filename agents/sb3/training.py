"""Pieces of an SB3 training run on Gomoku: win rates, and callbacks that end it.

:func:`win_rate` plays the greedy policy through a Gymnasium env; :class:`TargetWinRate`
stops a phase once that rate reaches a target; :class:`BudgetCallback` saves the
checkpoints of a :class:`~agents.training.run_budget.RunBudget` and stops once it is
spent, and :func:`zip_budget` makes that budget with model zips as its checkpoints.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import gymnasium
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback

from agents.training.run_budget import RunBudget
from gomoku_env.files import write_atomically


def win_rate(model: BaseAlgorithm, env: gymnasium.Env, games: int, seed: int) -> float:
    """Fraction of ``games`` in ``env`` that the greedy, masked policy wins; game
    ``g`` is reset with seed ``seed + g``."""
    wins = 0
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        terminated = truncated = False
        while not (terminated or truncated):
            action, _ = model.predict(
                observation,
                deterministic=True,
                action_masks=info["action_mask"].astype(bool),
            )
            observation, reward, terminated, truncated, info = env.step(int(action))
        wins += reward > 0
    return wins / games


class TargetWinRate(BaseCallback):
    """Every ``every`` steps asks ``evaluate`` for the model's win rate, prints it, and
    stops training once it reaches ``target``; ``reached_at`` then holds the steps and
    the wall minutes it took."""

    def __init__(
        self, evaluate: Callable[[BaseAlgorithm], float], every: int, target: float
    ) -> None:
        super().__init__()
        self.evaluate = evaluate
        self.every = every
        self.target = target
        self.start = time.perf_counter()
        self.next_eval = every
        self.reached_at: tuple[int, float] | None = None

    def _on_step(self) -> bool:
        if self.num_timesteps < self.next_eval:
            return True
        self.next_eval += self.every
        rate = self.evaluate(self.model)
        minutes = (time.perf_counter() - self.start) / 60
        print(
            f"  {self.num_timesteps:>8} steps  {minutes:6.1f} min  win rate {rate:.3f}"
        )
        if rate >= self.target:
            self.reached_at = (self.num_timesteps, minutes)
            return False
        return True


class BudgetCallback(BaseCallback):
    """Saves the checkpoints of the run's budget and stops training once it is spent
    (steps or CPU hours, counted over every ``learn`` call that shares it)."""

    def __init__(self, budget: RunBudget[BaseAlgorithm]) -> None:
        super().__init__()
        self.budget = budget

    def _on_step(self) -> bool:
        return not self.budget.spent(self.num_timesteps, self.model)


def zip_budget(
    steps: int, cpu_hours: float, checkpoints: int, path: str | Path
) -> RunBudget[BaseAlgorithm]:
    """A run's budget whose checkpoints are model zips beside ``path``; 0 steps or
    0 CPU hours: no limit of that kind."""

    def save(checkpoint: Path, model: BaseAlgorithm) -> None:
        write_atomically(checkpoint, model.save)

    return RunBudget(steps or sys.maxsize, cpu_hours or None, checkpoints, path, save)
