"""PolicyValueNet: the AlphaZero policy-value network, one set of weights for any board.

The trunk is a stack of residual 3×3 convolution blocks. The policy head is fully
convolutional (one logit per cell) and the value head pools globally over the board
before its dense layers, so no layer has a size that depends on the board: a network
trained on 9×9 runs unchanged on 8×8 or 15×15, and fine-tuning starts from there.

The input is the env's observation planes (channels last, int8, from the point of view
of the side to move); :func:`planes_to_tensor` turns them channels first and appends an
all-ones plane, so that the zero padding of the convolutions lets the net see where the
board ends whatever the colour plane holds.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional

from gomoku_env.planes import PLANE_COUNT


@dataclass(frozen=True)
class NetworkConfig:
    """The shape of a :class:`PolicyValueNet`; saved with its weights.

    Attributes:
        channels: width of the residual trunk.
        blocks: residual blocks in the trunk.
        value_hidden: width of the value head's hidden dense layer.
        input_planes: observation planes the net reads (the env's ``PLANE_COUNT``).
    """

    channels: int = 32
    blocks: int = 4
    value_hidden: int = 64
    input_planes: int = PLANE_COUNT

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"NetworkConfig.{name} must be an int >= 1, got {value!r}"
                )

    def to_dict(self) -> dict[str, int]:
        """Plain values for a checkpoint (loadable with ``weights_only=True``)."""
        return asdict(self)


def planes_to_tensor(
    planes: np.ndarray, device: torch.device | str = "cpu"
) -> torch.Tensor:
    """(batch, H, W, C) int8 planes → (batch, C + 1, H, W) float, plus a ones plane."""
    tensor = torch.from_numpy(np.ascontiguousarray(planes)).to(device)
    tensor = tensor.permute(0, 3, 1, 2).float()
    ones = torch.ones_like(tensor[:, :1])
    return torch.cat((tensor, ones), dim=1)


class ResidualBlock(nn.Module):
    """Two 3×3 convolutions with batch norm and a skip connection."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.norm1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.norm2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = functional.relu(self.norm1(self.conv1(x)))
        y = self.norm2(self.conv2(y))
        return functional.relu(x + y)


class PolicyValueNet(nn.Module):
    """Policy logits (batch, H*W) and values (batch,) in [-1, 1], side to move."""

    def __init__(self, config: NetworkConfig | None = None) -> None:
        super().__init__()
        self.config = config if config is not None else NetworkConfig()
        channels = self.config.channels
        self.stem = nn.Sequential(
            nn.Conv2d(self.config.input_planes + 1, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
        )
        self.trunk = nn.Sequential(
            *(ResidualBlock(channels) for _ in range(self.config.blocks))
        )
        self.policy_head = nn.Sequential(
            nn.Conv2d(channels, channels // 2, 1, bias=False),
            nn.BatchNorm2d(channels // 2),
            nn.ReLU(),
            nn.Conv2d(channels // 2, 1, 1),
        )
        self.value_conv = nn.Sequential(
            nn.Conv2d(channels, channels // 2, 1, bias=False),
            nn.BatchNorm2d(channels // 2),
            nn.ReLU(),
        )
        self.value_head = nn.Sequential(
            nn.Linear(channels, self.config.value_hidden),
            nn.ReLU(),
            nn.Linear(self.config.value_hidden, 1),
            nn.Tanh(),
        )

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``x`` from :func:`planes_to_tensor`; returns (policy logits, values)."""
        if x.shape[1] != self.config.input_planes + 1:
            raise ValueError(
                f"the network reads {self.config.input_planes} observation planes, "
                f"got input with {x.shape[1] - 1}"
            )
        features = self.trunk(self.stem(x))
        logits = self.policy_head(features).flatten(1)
        pooled = self.value_conv(features)
        # Mean and max over the board: a fixed-size summary whatever the board size.
        summary = torch.cat((pooled.mean(dim=(2, 3)), pooled.amax(dim=(2, 3))), dim=1)
        return logits, self.value_head(summary).squeeze(1)


def masked_log_softmax(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Log-probabilities over the legal cells; illegal cells get a large negative.

    A finite fill (not -inf) keeps ``target * log_probability`` at 0 on illegal cells.
    """
    return functional.log_softmax(logits.masked_fill(masks == 0, -1e4), dim=1)
