"""Pieces of an SB3 training run on Gomoku: win rates, and the callback that ends it.

:func:`win_rate` plays the greedy policy through a Gymnasium env; :class:`BudgetCallback`
saves the checkpoints of a :class:`~agents.training.run_budget.RunBudget` and stops once it is
spent, and :func:`zip_budget` makes that budget with model zips as its checkpoints.
"""

from __future__ import annotations

import sys
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
