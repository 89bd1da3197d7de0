"""A small fully convolutional feature extractor for Gomoku planes.

SB3's default ``NatureCNN`` needs images of at least 36×36 and strides that throw away
the cell grid; a board wants same-padded 3×3 convolutions that keep one feature vector
per cell.
"""

from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from gomoku_env.planes import PLANE_COUNT


class GomokuCNN(BaseFeaturesExtractor):
    """Same-padded 3×3 conv stack over the planes, then a linear layer.

    Accepts the gym env's observation in either layout (channels first or last).

    Args:
        observation_space: the env's Box of int8 planes.
        features_dim: size of the output feature vector.
        channels: width of each conv layer.
        layers: number of conv layers.
    """

    def __init__(
        self,
        observation_space: spaces.Box,
        features_dim: int = 256,
        channels: int = 32,
        layers: int = 3,
    ) -> None:
        super().__init__(observation_space, features_dim)
        shape = observation_space.shape
        self.channels_last = shape[-1] == PLANE_COUNT and shape[0] != PLANE_COUNT
        cells = shape[0] * shape[1] if self.channels_last else shape[1] * shape[2]
        blocks: list[nn.Module] = []
        width = PLANE_COUNT
        for _ in range(layers):
            blocks += [nn.Conv2d(width, channels, 3, padding=1), nn.ReLU()]
            width = channels
        self.convolutions = nn.Sequential(*blocks, nn.Flatten())
        self.linear = nn.Sequential(
            nn.Linear(channels * cells, features_dim), nn.ReLU()
        )

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        planes = observations.float()
        if self.channels_last:
            planes = planes.permute(0, 3, 1, 2)
        return self.linear(self.convolutions(planes))
