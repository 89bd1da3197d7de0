"""Give an AlphaZero weights file the env's current number of observation planes.

The shipped networks were trained while the observation had 4 planes; renju added a
5th (points forbidden to the side to move), which is all zeros outside renju. Adding
input channels with zero weights to the network's first convolution leaves every
output unchanged on positions where the new planes are zero, so a freestyle network
keeps its play exactly and loads in the current env.

Run: ``python scripts/widen_network_planes.py agents/alphazero/weights/9x9.pt [...]``
"""

from __future__ import annotations

import argparse

import torch

from agents.alphazero.checkpoint import read_checkpoint, save_network
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.training_config import NetworkConfig
from gomoku_env.planes import PLANE_COUNT

STEM_WEIGHT = "stem.0.weight"


def widen(path: str) -> None:
    """Rewrite ``path`` in place (atomically) with PLANE_COUNT input planes."""
    payload = read_checkpoint(path)
    old_planes = payload["network_config"]["input_planes"]
    if old_planes == PLANE_COUNT:
        print(f"{path}: already reads {PLANE_COUNT} planes")
        return
    if old_planes > PLANE_COUNT:
        raise ValueError(f"{path} reads {old_planes} planes, more than {PLANE_COUNT}")
    state = dict(payload["state_dict"])
    stem = state[STEM_WEIGHT]  # (channels, old_planes + 1 ones plane, 3, 3)
    added = torch.zeros(stem.shape[0], PLANE_COUNT - old_planes, *stem.shape[2:])
    state[STEM_WEIGHT] = torch.cat(
        (stem[:, :old_planes], added, stem[:, old_planes:]), 1
    )
    config = NetworkConfig(**{**payload["network_config"], "input_planes": PLANE_COUNT})
    network = PolicyValueNet(config)
    network.load_state_dict(state)
    metadata = dict(payload.get("metadata", {}))
    metadata["widened_from_planes"] = old_planes
    save_network(network, path, metadata)
    print(f"{path}: {old_planes} -> {PLANE_COUNT} planes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="weights files to rewrite in place")
    for path in parser.parse_args().paths:
        widen(path)


if __name__ == "__main__":
    main()
