"""Saving and loading networks and training state, atomically and safely.

Files are written to a temporary file in the same folder and moved into place with
``os.replace``, so a run killed mid-write leaves the previous file intact. Files are
read with ``torch.load(weights_only=True)``, which refuses arbitrary pickled objects,
and every way a file can be wrong (missing, truncated, corrupt, not ours, a different
network shape, a claimed shape that does not match the stored weights, NaN or infinite
weights, another number of observation planes) ends in a :class:`CheckpointError`
naming the file and the reason. The claimed network is checked against the stored
weights before it is built, so a small file cannot make us allocate a huge network.

The networks shipped inside the package: ``weights`` options accept a bundled name (the
file stem in ``agents/alphazero/weights``, such as ``"9x9"``) or a path to a file
written by ``gomoku train``. Without one, an agent uses the bundled network for its
board size (:data:`DEFAULT_FOR_SIZE`), else the strongest 15×15 one (the networks are
fully convolutional, so any of them runs on any board).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch

from agents.alphazero.network import PolicyValueNet
from agents.alphazero.training_config import NetworkConfig
from agents.training.torch_policy import (
    BundledWeights,
    load_checked_state,
    load_failure,
)
from gomoku_env.files import (
    WEIGHTS_LIMIT,
    check_inflated_size,
    check_regular_file,
    write_atomically,
)
from gomoku_env.planes import PLANE_COUNT

WEIGHTS_DIR = Path(__file__).parent / "weights"
FALLBACK = "15x15-gumbel"
"""The strongest 15×15 network; the default on sizes without a network of their own."""
DEFAULT_FOR_SIZE = {8: "8x8", 9: "9x9", 15: FALLBACK}
"""Each board size's default network. On 15×15 that is not the file called ``15x15``:
that name stays the first network's, which the ``15x15-v1`` scale's anchors name."""


BUNDLED = BundledWeights(WEIGHTS_DIR, "network")
bundled_names = BUNDLED.names
resolve_weights = BUNDLED.resolve


def default_weights(board_size: int) -> Path:
    """The bundled network for ``board_size``, else the fallback one."""
    for name in (
        DEFAULT_FOR_SIZE.get(board_size, FALLBACK),
        FALLBACK,
        *bundled_names(),
    ):
        path = BUNDLED.file(name)
        if path is not None:
            return path
    raise ValueError("no AlphaZero network is shipped with this copy of gomoku_env")


FORMAT = "gomoku_env.alphazero"
FORMAT_VERSION = 1


class CheckpointError(ValueError):
    """A weights or checkpoint file that cannot be used, with the reason."""


def save_network(
    network: PolicyValueNet,
    path: str | os.PathLike[str],
    metadata: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Write the network's config and weights, plus ``metadata`` and ``extra``."""
    payload = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "network_config": network.config.to_dict(),
        "state_dict": {
            key: value.detach().cpu() for key, value in network.state_dict().items()
        },
        "metadata": dict(metadata or {}),
    }
    payload.update(extra or {})
    write_atomically(
        path,
        lambda temporary: torch.save(payload, temporary),
        create_parents=True,
    )


def read_checkpoint(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The payload of a file written by :func:`save_network`, checked for our format."""
    path = check_regular_file(
        path, "an AlphaZero weights file", WEIGHTS_LIMIT, CheckpointError
    )
    check_inflated_size(path, "an AlphaZero weights file", CheckpointError)
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for damaged files
        raise CheckpointError(
            f"{str(path)!r} is not a valid gomoku_env AlphaZero weights file: "
            f"{load_failure(error, path)}. {_what_to_do()}"
        ) from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise CheckpointError(
            f"{str(path)!r} is not a gomoku_env AlphaZero weights file (a torch "
            f"file, but not one that save_network wrote). {_what_to_do()}"
        )
    if payload.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(
            f"{str(path)!r} has format version {payload.get('format_version')!r}; "
            f"this gomoku_env reads version {FORMAT_VERSION}"
        )
    return payload


def network_from_payload(
    payload: dict[str, Any], path: str | os.PathLike[str]
) -> PolicyValueNet:
    """Build the network that a checkpoint payload describes and load its weights."""
    try:
        config = NetworkConfig(**payload["network_config"])
    except (KeyError, TypeError, ValueError) as error:
        raise CheckpointError(
            f"{str(path)!r} has a bad network config: {error}"
        ) from None
    if config.input_planes != PLANE_COUNT:
        raise CheckpointError(
            f"{str(path)!r} holds a network that reads {config.input_planes} "
            f"observation planes; this gomoku_env gives {PLANE_COUNT} "
            "(scripts/widen_network_planes.py converts older networks)"
        )
    state_dict = payload.get("state_dict")
    _check_claimed_shape(config, state_dict, path)
    network = PolicyValueNet(config)
    load_weights(network, state_dict, path)
    return network


def _check_claimed_shape(
    config: NetworkConfig, state_dict: Any, path: str | os.PathLike[str]
) -> None:
    """Compare the stored tensors with the claimed network, built without memory."""
    if not isinstance(state_dict, dict):
        raise CheckpointError(f"{str(path)!r} holds no weights")
    with torch.device("meta"):
        expected = PolicyValueNet(config).state_dict()
    misfits = sorted(
        name
        for name in expected.keys() | state_dict.keys()
        if name not in expected
        or getattr(state_dict.get(name), "shape", None) != expected[name].shape
    )
    if misfits:
        raise CheckpointError(
            f"weights in {str(path)!r} do not fit a network of {config}: "
            f"{len(misfits)} tensors differ, such as {', '.join(misfits[:3])}"
        )


def _what_to_do() -> str:
    names = ", ".join(bundled_names()) or "none shipped"
    return (
        "Use a file written by `gomoku train --export` or save_network, or a bundled "
        f"network by name ({names}); if the file was copied or downloaded, copy it "
        "again"
    )


def load_weights(
    network: PolicyValueNet, state_dict: Any, path: str | os.PathLike[str]
) -> None:
    """Load ``state_dict`` into ``network``; a clear error when it does not fit
    (:func:`agents.training.torch_policy.load_checked_state`)."""
    described = f"a network of {network.config}"
    load_checked_state(network, state_dict, str(path), CheckpointError, described)


def load_network(path: str | os.PathLike[str]) -> tuple[PolicyValueNet, dict[str, Any]]:
    """The network stored in ``path`` (eval mode) and its metadata."""
    payload = read_checkpoint(path)
    network = network_from_payload(payload, path)
    return network.eval(), dict(payload.get("metadata", {}))
