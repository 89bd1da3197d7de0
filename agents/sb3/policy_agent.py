"""An SB3 maskable policy as a Gomoku Agent, for the AEC env, the arena and the GUI.

The gym env's observation is the AEC observation planes seen by the learner, so a
trained policy can play any seat: only the layout (channels first or last) may differ.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from agents.sb3.policy_file import (
    load_policy_weights,
    load_zip_policy,
    save_policy_weights,
)
from gomoku_env.config import GameConfig
from gomoku_env.planes import PLANE_COUNT

POLICY_SUFFIX = ".pt"
"""The ending of a policy file's name (any other is read as a MaskablePPO zip)."""


def policy_of(model: Any) -> MaskableActorCriticPolicy:
    """The maskable policy of a MaskablePPO model (or the policy itself)."""
    policy = getattr(model, "policy", model)
    if not isinstance(policy, MaskableActorCriticPolicy):
        raise TypeError(
            f"expected a MaskablePPO model or MaskableActorCriticPolicy, got {model!r}"
        )
    return policy


class PolicyAgent:
    """Plays the action an SB3 maskable policy picks for the AEC observation.

    Args:
        model: a MaskablePPO model or its policy.
        deterministic: play the most likely legal action instead of sampling.
        seed: seeds the agent's own generator, which draws the sampled actions; the
            global torch random state is never touched. Unseeded agents draw a fresh
            seed each.
    """

    def __init__(
        self, model: Any, deterministic: bool = True, seed: int | None = None
    ) -> None:
        self.policy = policy_of(model)
        self.deterministic = deterministic
        shape = self.policy.observation_space.shape
        self.channels_first = shape[0] == PLANE_COUNT and shape[-1] != PLANE_COUNT
        self.generator = torch.Generator()
        if seed is None:
            self.generator.seed()
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; reseed the sampling generator when ``seed`` is given."""
        if seed is not None:
            self.generator.manual_seed(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        planes = observation["observation"][None]
        return int(self.act_batch(planes, observation["action_mask"][None])[0])

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray | None = None
    ) -> np.ndarray:
        """Actions for channels-last planes (n, N, N, C) and masks (n, N*N).

        ``games`` (the vector env's slot numbers) is accepted and unused: the policy
        keeps no per-game state.
        """
        if self.channels_first:
            planes = planes.transpose(0, 3, 1, 2)
        self.policy.set_training_mode(False)
        tensor, _ = self.policy.obs_to_tensor(planes)
        with torch.no_grad():
            distribution = self.policy.get_distribution(
                tensor, action_masks=masks.astype(bool)
            )
            probabilities = distribution.distribution.probs.cpu()
        if self.deterministic:
            actions = probabilities.argmax(dim=1)
        else:
            actions = torch.multinomial(probabilities, 1, generator=self.generator)[
                :, 0
            ]
        return actions.numpy().astype(np.int64)


def load_agent(
    config: GameConfig | None = None,
    seed: int | None = None,
    path: str | Path = "gomoku_maskable_ppo.zip",
    deterministic: bool = True,
) -> PolicyAgent:
    """A :class:`PolicyAgent` for a MaskablePPO model saved at ``path``: its zip
    (``model.save``), or its policy alone in a ``.pt`` file written by
    :func:`export_policy` (weights only, a sixth of the size). Neither runs code from
    the file: a zip is read without SB3's loader, which unpickles
    (:func:`agents.sb3.policy_file.load_zip_policy`; a policy on GomokuCNN).

    Has the agent-factory signature ``(config, seed, **options)``, so it can back an
    agent spec; ``config`` is checked against the model's board size when given.
    """
    if not Path(path).is_file():
        raise ValueError(f"no saved MaskablePPO model at {str(path)!r}")
    if Path(path).suffix == POLICY_SUFFIX:
        model = load_policy_weights(path)
    else:
        model = load_zip_policy(path)
    agent = PolicyAgent(model, deterministic=deterministic, seed=seed)
    shape = agent.policy.observation_space.shape
    size = shape[1] if agent.channels_first else shape[0]
    if config is not None and config.board_size != size:
        raise ValueError(
            f"model {str(path)!r} plays {size}x{size}, "
            f"not board_size {config.board_size}"
        )
    return agent


def export_policy(model_path: str | Path, path: str | Path) -> Path:
    """Write the policy of the MaskablePPO zip at ``model_path`` to ``path`` (a
    ``.pt`` file) as weights only: what the zoo ships, and what ``load_agent`` reads
    like the zip (:func:`agents.sb3.policy_file.save_policy_weights`)."""
    if Path(path).suffix != POLICY_SUFFIX:
        raise ValueError(
            f"a policy file's name ends in {POLICY_SUFFIX}, not {str(path)!r}"
        )
    return save_policy_weights(load_zip_policy(model_path), path)
