"""A small convolutional feature extractor for Gomoku planes.

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

CELL_NET_ARCH = {"pi": [], "vf": [64]}
"""SB3's heads on per-cell features (``net_arch``): the action scores a linear map of
them (a hidden layer of 64 would squeeze the board's geometry through 64 numbers), the
value through one hidden layer."""


def is_channels_last(shape: tuple[int, ...]) -> bool:
    """Whether an observation space of ``shape`` holds channels-last planes (N, N,
    planes), as opposed to the CNN layout (planes, N, N)."""
    return shape[-1] == PLANE_COUNT and shape[0] != PLANE_COUNT


class GomokuCNN(BaseFeaturesExtractor):
    """Same-padded 3×3 conv stack over the planes, then a linear layer, or with
    ``cell_features`` a 1×1 convolution to that many features per cell.

    The linear layer mixes every cell into ``features_dim`` numbers; the per-cell
    features keep the board's geometry up to SB3's linear action head, as the PPO
    recipe's fully convolutional network does, and learn the heuristic's moves as well
    as it does (docs/zoo.md). Accepts the gym env's observation in either layout
    (channels first or last).

    Args:
        observation_space: the env's Box of int8 planes.
        features_dim: size of the linear layer's output (not used with
            ``cell_features``, whose output is ``cell_features`` times the cells).
        channels: width of each conv layer.
        layers: number of conv layers.
        cell_features: features per cell from a 1×1 convolution instead of the
            linear layer (0: the linear layer).
        border: add a plane of ones to the input, so that the convolutions' zero
            padding tells the edge from an empty point (as the PPO recipe's network).
    """

    def __init__(
        self,
        observation_space: spaces.Box,
        features_dim: int = 256,
        channels: int = 32,
        layers: int = 3,
        cell_features: int = 0,
        border: bool = False,
    ) -> None:
        shape = observation_space.shape
        channels_last = is_channels_last(shape)
        cells = shape[0] * shape[1] if channels_last else shape[1] * shape[2]
        super().__init__(
            observation_space, cell_features * cells if cell_features else features_dim
        )
        self.channels_last, self.border = channels_last, border
        blocks: list[nn.Module] = []
        width = PLANE_COUNT + int(border)
        for _ in range(layers):
            blocks += [nn.Conv2d(width, channels, 3, padding=1), nn.ReLU()]
            width = channels
        if cell_features:
            self.convolutions = nn.Sequential(
                *blocks, nn.Conv2d(width, cell_features, 1), nn.ReLU(), nn.Flatten()
            )
            self.linear = nn.Identity()
        else:
            self.convolutions = nn.Sequential(*blocks, nn.Flatten())
            self.linear = nn.Sequential(
                nn.Linear(channels * cells, features_dim), nn.ReLU()
            )

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        planes = observations.float()
        if self.channels_last:
            planes = planes.permute(0, 3, 1, 2)
        if self.border:
            ones = planes.new_ones(planes.shape[0], 1, *planes.shape[2:])
            planes = torch.cat([planes, ones], dim=1)
        return self.linear(self.convolutions(planes))
