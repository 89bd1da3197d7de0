"""A small torch policy network that the RL-library examples share, and its Agent.

Tianshou, RLlib and TorchRL each wrap a network in their own module types, but the
network itself is the same plain ``torch.nn.Module``: :class:`PolicyNetwork` reads the
env's observation planes and scores every cell (Q-values for DQN, logits for policy
gradients) and estimates the value of the position. Each example trains it through its
library and saves it with :func:`save_policy`; :func:`load_agent` turns the file back
into an Agent, so the trained policy plays in the arena, the GUI and the ladder as the
spec ``python:agents.training.torch_policy:load_agent,path=policy.pt`` without the
library that trained it.

The network is fully convolutional in its scores and pools globally for its value, so
its weights fit any board size.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.base import legal_actions, warn_if_other_rules
from gomoku_env.config import GameConfig
from gomoku_env.files import (
    WEIGHTS_LIMIT,
    check_inflated_size,
    check_regular_file,
    write_atomically,
)
from gomoku_env.planes import PLANE_COUNT

MASKED_SCORE = -1e30
"""The score given to illegal cells: finite, so softmax and argmax stay defined, and
far below any score a network gives (the logits of a 9×9 TorchRL run drifted to -2e9,
below the -1e9 this once was, and its greedy move became an illegal cell)."""


@dataclass(frozen=True)
class PolicyShape:
    """The layers of a :class:`PolicyNetwork`; saved beside its weights.

    Attributes:
        channels: width of the 3×3 convolutions.
        layers: number of 3×3 convolutions.
        border: add a plane of ones to the input, so that the convolutions' zero
            padding marks the board's edge (a line against the edge is closed; without
            it white, whose colour plane is zeros, cannot see the edge).
    """

    channels: int = 32
    layers: int = 3
    border: bool = False

    def __post_init__(self) -> None:
        for name, most in (("channels", 1024), ("layers", 64)):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not 1 <= value <= most
            ):
                raise ValueError(
                    f"PolicyShape.{name} must be an int from 1 to {most}, got {value!r}"
                )
        if not isinstance(self.border, bool):
            raise ValueError(f"PolicyShape.border must be a bool, got {self.border!r}")


@dataclass(frozen=True)
class BundledWeights:
    """Networks shipped inside the package: the ``*.pt`` files of ``directory``, each
    named by its stem.

    ``kind`` names them in errors ("AlphaZero network", "PPO policy").
    """

    directory: Path
    kind: str

    def names(self) -> list[str]:
        """Names of the shipped files, sorted."""
        return sorted(path.stem for path in self.directory.glob("*.pt"))

    def file(self, name: str) -> Path | None:
        """The shipped file called ``name``, or None."""
        path = self.directory / f"{name}.pt"
        return path if path.is_file() else None

    def resolve(self, weights: str | os.PathLike[str]) -> Path:
        """The file that ``weights`` names: a shipped name or an existing path."""
        if not isinstance(weights, (str, os.PathLike)) or not str(weights):
            raise ValueError(
                f"weights must be a bundled name or a path, got {weights!r}"
            )
        bundled = self.file(weights) if isinstance(weights, str) else None
        if bundled is not None:
            return bundled
        path = Path(weights).expanduser()
        if path.is_file():
            return path
        raise ValueError(
            f"weights {str(weights)!r} is neither a bundled {self.kind} "
            f"({', '.join(self.names()) or 'none shipped'}) nor an existing file"
        )


def planes_to_tensor(planes: np.ndarray | torch.Tensor) -> torch.Tensor:
    """Observation planes (..., N, N, 5), channels last, as float (batch, 5, N, N)."""
    tensor = torch.as_tensor(planes).float()
    if tensor.shape[-1] != PLANE_COUNT:
        raise ValueError(
            f"expected observation planes (..., N, N, {PLANE_COUNT}), "
            f"got shape {tuple(tensor.shape)}"
        )
    side = tensor.shape[-2]
    return tensor.reshape(-1, side, side, PLANE_COUNT).permute(0, 3, 1, 2)


def mask_scores(scores: torch.Tensor, mask: np.ndarray | torch.Tensor) -> torch.Tensor:
    """``scores`` with every cell that ``mask`` marks illegal (0/False) set very low."""
    legal = torch.as_tensor(mask, device=scores.device).reshape(scores.shape).bool()
    return scores.masked_fill(~legal, MASKED_SCORE)


class PolicyNetwork(nn.Module):
    """Scores for every cell and a value in [-1, 1] for the observer's position."""

    def __init__(self, shape: PolicyShape | None = None) -> None:
        super().__init__()
        self.shape = shape or PolicyShape()
        layers: list[nn.Module] = []
        width = PLANE_COUNT + int(self.shape.border)
        for _ in range(self.shape.layers):
            layers += [nn.Conv2d(width, self.shape.channels, 3, padding=1), nn.ReLU()]
            width = self.shape.channels
        self.trunk = nn.Sequential(*layers)
        self.score_head = nn.Conv2d(width, 1, 1)
        self.value_head = nn.Sequential(nn.Linear(width, 1), nn.Tanh())

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Planes (batch, N, N, 5) channels last → scores (batch, N*N), values (batch,)."""
        inputs = planes_to_tensor(planes)
        if self.shape.border:
            ones = inputs.new_ones(inputs.shape[0], 1, *inputs.shape[2:])
            inputs = torch.cat([inputs, ones], dim=1)
        features = self.trunk(inputs)
        scores = self.score_head(features).flatten(1)
        values = self.value_head(features.mean(dim=(2, 3))).squeeze(-1)
        return scores, values


def save_policy(
    path: str | os.PathLike[str],
    network: PolicyNetwork,
    config: GameConfig,
    **about: Any,
) -> Path:
    """Write the network's weights, shape and game (plus ``about``) to ``path``."""
    checkpoint = {
        "shape": asdict(network.shape),
        "state_dict": network.state_dict(),
        "board_size": config.board_size,
        "win_length": config.win_length,
        "rule": config.rule.value,
        "about": about,
    }
    return write_atomically(
        path, lambda temporary: torch.save(checkpoint, temporary), create_parents=True
    )


def load_policy(
    path: str | os.PathLike[str], config: GameConfig | None = None
) -> PolicyNetwork:
    """The network saved by :func:`save_policy` at ``path``, in evaluation mode; with
    ``config``, a warning if it was trained for another board size, win length or
    rule (:func:`agents.base.warn_if_other_rules`).

    Raises:
        ValueError: naming the file: not a regular file, too large, not a policy
            file (or one holding Python objects, which are never loaded), a bad
            shape, or weights that do not fit it or are not finite.
    """
    path, checkpoint = read_weights_file(path, "policy file", WEIGHTS_LIMIT)
    if not (
        isinstance(checkpoint, dict)
        and isinstance(checkpoint.get("shape"), dict)
        and "state_dict" in checkpoint
    ):
        raise ValueError(
            f"{str(path)!r} is not a policy file written by save_policy (it has no "
            "network shape and weights)"
        )
    try:
        shape = PolicyShape(**checkpoint["shape"])
    except (TypeError, ValueError) as error:
        raise ValueError(f"{str(path)!r} has a bad network shape: {error}") from None
    if config is not None:
        warn_if_other_rules(f"the policy {path.name}", checkpoint, config)
    network = PolicyNetwork(shape)
    load_checked_state(network, checkpoint["state_dict"], str(path))
    return network.eval()


def read_weights_file(
    path: str | os.PathLike[str], kind: str, limit: int
) -> tuple[Path, Any]:
    """``path`` and the plain data of the torch file there, read weights-only (never
    running code) after checking it is a regular file of at most ``limit`` bytes that
    does not unpack to far more; a bad file is one ValueError naming it as a
    ``kind`` ("policy file")."""
    path = check_regular_file(path, f"a {kind}", limit)
    check_inflated_size(path, f"a {kind}")
    try:
        return path, torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for damaged files
        raise ValueError(
            f"{str(path)!r} is not a valid {kind}: {load_failure(error, path)}"
        ) from None


def load_checked_state(
    network: nn.Module,
    state_dict: Any,
    where: str,
    error: type[ValueError] = ValueError,
    described: str = "the network",
) -> None:
    """Load ``state_dict`` into ``network`` (``described`` in errors) after checking
    what torch does not: every
    tensor has the network's own dtype (an int64 or complex file truncated or cast
    every weight silently) and finite values. Refusals name ``where`` in one line."""
    if not isinstance(state_dict, dict):
        raise error(f"{where!r} holds no weights")
    expected = network.state_dict()
    for name, tensor in state_dict.items():
        if not torch.is_tensor(tensor):
            raise error(f"{where!r}: weights {name} are not a tensor")
        if name in expected and tensor.dtype != expected[name].dtype:
            raise error(
                f"{where!r}: weights {name} are {tensor.dtype}, not "
                f"{expected[name].dtype}"
            )
        if tensor.is_floating_point() and not torch.isfinite(tensor).all():
            raise error(f"{where!r}: weights {name} are not finite (NaN or infinite)")
    try:
        network.load_state_dict(state_dict)
    except RuntimeError as failure:
        lines = str(failure).strip().splitlines()
        raise error(
            f"weights in {where!r} do not fit {described}: "
            f"{' '.join(line.strip() for line in lines[:3])}"
        ) from None


def load_failure(error: Exception, path: Path) -> str:
    """Why torch could not read ``path``, in a phrase, without its advice to load it
    unsafely (``weights_only=False`` would run any code that a file carries)."""
    text = str(error)
    if "Unsupported global" in text:
        return (
            "it holds Python objects other than tensors and plain values, which are "
            "never loaded because loading them could run code"
        )
    if path.stat().st_size == 0:
        return "the file is empty"
    detail = ""
    if isinstance(error, RuntimeError) and "weights_only" not in text.lower():
        detail = f" ({text.strip().split('. ')[0].rstrip('.')})"
    return f"it is truncated or corrupt{detail}"


class NetworkAgent:
    """Plays the legal cell a :class:`PolicyNetwork` scores highest (deterministic),
    or with ``sample=True`` a cell drawn from its masked softmax, as the
    policy-gradient examples play while they train (seeded by ``seed`` and by
    ``reset``): the policy that a training run's running rating measures."""

    def __init__(
        self, network: PolicyNetwork, sample: bool = False, seed: int | None = None
    ) -> None:
        if not isinstance(sample, bool):
            raise ValueError(f"sample must be true or false, got {sample!r}")
        self.network = network.eval()
        self.sample = sample
        self.generator = torch.Generator()
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the draws of a sampling agent (a greedy one keeps no state)."""
        if seed is None:
            self.generator.seed()
        else:
            self.generator.manual_seed(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        legal_actions(observation)  # a clear error when the agent is not to move
        with torch.no_grad():
            scores, _ = self.network(observation["observation"][None])
        mask = observation["action_mask"]
        if self.sample:
            probabilities = torch.softmax(mask_scores(scores, mask), -1)[0]
            return int(torch.multinomial(probabilities, 1, generator=self.generator))
        legal = np.flatnonzero(mask)
        return int(legal[scores[0, torch.as_tensor(legal)].argmax()])


def load_agent(
    config: GameConfig | None = None,
    seed: int | None = None,
    path: str = "",
    sample: bool = False,
) -> NetworkAgent:
    """The agent of the spec
    ``python:agents.training.torch_policy:load_agent,path=FILE[,sample=true]``.

    The network plays any board size (it warns when ``config``'s rules are not those
    it was trained for). It plays its greedy move, or with ``sample=true`` a move
    drawn from its softmax, seeded by ``seed``.
    """
    if not path:
        raise ValueError(
            "load_agent needs a path: python:agents.training.torch_policy:load_agent,path=FILE"
        )
    return NetworkAgent(load_policy(path, config), sample=sample, seed=seed)
