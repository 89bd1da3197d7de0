"""PPO's moves and updates: the opponent, the rollouts and the clipped-surrogate steps.

The opponent is the heuristic (:class:`NoisyHeuristic`, stepped in one compiled call
for all games), a share of its moves random: a curriculum that keeps the reward
informative. A rollout is ``rollout_steps`` moves of every game under the sampling
policy; an update is ``epochs`` passes of clipped-surrogate minibatch steps with
generalised advantage estimation, an entropy bonus and a value loss.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch.nn import functional

from agents.classic.heuristic import HeuristicAgent
from agents.ppo.config import PPOConfig
from agents.training.torch_policy import PolicyNetwork, mask_scores
from gomoku_env.config import GameConfig
from gomoku_env.vector_env import GomokuVectorEnv


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal action per row of boolean ``masks``."""
    keys = rng.random(masks.shape) * masks
    return keys.argmax(axis=1)


class NoisyHeuristic:
    """The heuristic as the PPO opponent, a ``noise`` share of its moves random: the
    curriculum's knob, moved after each update by :meth:`adapt` so that the learner
    wins about half its games until the share reaches 0 (the plain heuristic).

    A batch opponent of the vector env (``act_batch``).
    """

    def __init__(self, game: GameConfig, noise: float, step: float, seed: int) -> None:
        self.heuristic = HeuristicAgent(game, seed=seed)
        self.noise = noise
        self.step = step
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.heuristic.reset(seed)
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        moves = self.heuristic.act_batch(planes, masks, games)
        explore = self.rng.random(moves.size) < self.noise
        return np.where(explore, random_legal(masks.astype(bool), self.rng), moves)

    def adapt(self, win_rate: float) -> None:
        """Less noise while the learner wins more than half its games, more while it
        wins less."""
        change = -self.step if win_rate > 0.5 else self.step
        self.noise = float(np.clip(self.noise + change, 0.0, 1.0))


@dataclass
class Rollout:
    """``rollout_steps`` steps of every game, as PPO's update reads them."""

    planes: torch.Tensor
    masks: torch.Tensor
    actions: torch.Tensor
    log_probs: torch.Tensor
    values: torch.Tensor
    rewards: torch.Tensor
    ended: torch.Tensor
    last_values: torch.Tensor

    def advantages(self, gamma: float, gae_lambda: float) -> torch.Tensor:
        """Generalised advantage estimates; no bootstrap past a game's end."""
        advantages = torch.zeros_like(self.rewards)
        running = torch.zeros_like(self.last_values)
        next_values = self.last_values
        for step in reversed(range(self.rewards.shape[0])):
            going_on = 1.0 - self.ended[step]
            delta = (
                self.rewards[step] + gamma * next_values * going_on - self.values[step]
            )
            running = delta + gamma * gae_lambda * going_on * running
            advantages[step] = running
            next_values = self.values[step]
        return advantages


def collect(
    network: PolicyNetwork,
    envs: GomokuVectorEnv,
    observations: np.ndarray,
    steps: int,
) -> tuple[Rollout, np.ndarray, int]:
    """Play ``steps`` steps of every game with the sampling policy: the rollout, the
    observations to go on from, and the games finished on the way."""
    planes, masks, actions, log_probs, values, rewards, ended = ([] for _ in range(7))
    finished = 0
    network.eval()
    with torch.no_grad():
        for _ in range(steps):
            legal = torch.as_tensor(envs.action_masks())
            scores, value = network(observations)
            policy = torch.distributions.Categorical(logits=mask_scores(scores, legal))
            action = policy.sample()
            planes.append(torch.as_tensor(observations))
            masks.append(legal)
            actions.append(action)
            log_probs.append(policy.log_prob(action))
            values.append(value)
            observations, reward, terminated, _, _ = envs.step(action.numpy())
            rewards.append(torch.as_tensor(reward))
            ended.append(torch.as_tensor(terminated, dtype=torch.float32))
            finished += int(terminated.sum())
        _, last_values = network(observations)
    rollout = Rollout(
        torch.stack(planes), torch.stack(masks), torch.stack(actions),
        torch.stack(log_probs), torch.stack(values), torch.stack(rewards),
        torch.stack(ended), last_values,
    )  # fmt: skip
    return rollout, observations, finished


def ppo_update(
    network: PolicyNetwork,
    optimizer: torch.optim.Optimizer,
    rollout: Rollout,
    config: PPOConfig,
    generator: torch.Generator,
) -> dict[str, float]:
    """``epochs`` passes of clipped-surrogate minibatch steps over ``rollout``."""
    advantages = rollout.advantages(config.gamma, config.gae_lambda).flatten()
    returns = advantages + rollout.values.flatten()
    size = rollout.planes.shape[2]
    planes = rollout.planes.reshape(-1, size, size, rollout.planes.shape[-1])
    masks = rollout.masks.reshape(planes.shape[0], -1)
    actions = rollout.actions.flatten()
    old_log_probs = rollout.log_probs.flatten()
    count = planes.shape[0]
    network.train()
    stats = {"clipped": 0.0, "entropy": 0.0, "value_loss": 0.0}
    steps = 0
    for _ in range(config.epochs):
        order = torch.randperm(count, generator=generator)
        for start in range(0, count, config.minibatch):
            rows = order[start : start + config.minibatch]
            scores, values = network(planes[rows])
            policy = torch.distributions.Categorical(
                logits=mask_scores(scores, masks[rows])
            )
            ratio = torch.exp(policy.log_prob(actions[rows]) - old_log_probs[rows])
            advantage = advantages[rows]
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
            surrogate = torch.min(
                ratio * advantage,
                ratio.clamp(1 - config.clip, 1 + config.clip) * advantage,
            )
            entropy = policy.entropy().mean()
            value_loss = functional.mse_loss(values, returns[rows])
            loss = (
                -surrogate.mean()
                + config.value_weight * value_loss
                - config.entropy * entropy
            )
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), config.max_grad_norm)
            optimizer.step()
            stats["clipped"] += float(((ratio - 1).abs() > config.clip).float().mean())
            stats["entropy"] += entropy.item()
            stats["value_loss"] += value_loss.item()
            steps += 1
    return {name: total / steps for name, total in stats.items()}
