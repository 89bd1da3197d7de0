"""An SB3 maskable policy read and written without running code from the file.

A MaskablePPO zip holds the optimizer's state beside the policy and its settings as
pickled Python objects: 4.5 MB for the zoo's 9x9 policy, and SB3's own loader
(``MaskablePPO.load``) unpickles those settings, which runs any code a crafted file
carries. Two readers here never do:

- a policy file (:func:`save_policy_weights`) holds the policy's weights in half
  precision and the few plain numbers that rebuild it
  (:class:`agents.sb3.features.GomokuCNN` as the features extractor): 0.7 MB;
- a MaskablePPO zip (:func:`load_zip_policy`) is read from the plain copies of the
  settings that SB3 writes beside each pickle, and its ``policy.pth`` weights only.

Both load tensors with ``torch.load(..., weights_only=True)``, and every size a file
asks for is checked before a network is built.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from agents.sb3.features import GomokuCNN
from agents.training.torch_policy import (
    load_checked_state,
    load_failure,
    read_weights_file,
)
from gomoku_env.config import MAX_BOARD_SIZE, MIN_BOARD_SIZE
from gomoku_env.env_options import OBSERVATION_DTYPES
from gomoku_env.files import check_inflated_size, check_regular_file, write_atomically
from gomoku_env.planes import PLANE_COUNT

FORMAT = "gomoku_env sb3 maskable policy, weights only"
"""What a policy file says it is, so another torch file is refused by name."""
FILE_LIMIT = 64 * 1024 * 1024
"""The largest policy file read (the zoo's is 0.7 MB)."""
LIMITS = {
    "features_dim": 4096,
    "channels": 512,
    "layers": 16,
    "cell_features": 64,
    "hidden": 4096,
}
"""The largest features extractor and hidden layers a file may ask to build."""
ZIP_LIMIT = 256 * 1024 * 1024
"""The largest MaskablePPO zip read (the zoo's are 4.5 MB)."""
ZIP_SETTINGS = {
    "features_extractor_class",
    "features_extractor_kwargs",
    "net_arch",
    "normalize_images",
    "share_features_extractor",
    "ortho_init",
    "optimizer_class",
    "optimizer_kwargs",
}
"""The policy settings a zip may name: those that shape a GomokuCNN policy, and
those that only train it. Any other (an activation, another policy) shapes a network
this reader cannot rebuild from plain numbers."""
GOMOKU_CNN = f"<class '{GomokuCNN.__module__}.{GomokuCNN.__qualname__}'>"
"""How a zip's plain copy of the settings names the features extractor."""
TRUSTED_ONLY = "load a model you trust with MaskablePPO.load and pass it to PolicyAgent"
"""What a zip this reader refuses needs: SB3's own loader, which unpickles."""
SIZED_FEATURES = {"features_dim", "channels", "layers"}
"""GomokuCNN's settings every policy file names."""
OPTIONAL_FEATURES = {"cell_features", "border"}
"""GomokuCNN's later settings: a file without them was written before they existed."""


def save_policy_weights(
    policy: MaskableActorCriticPolicy, path: str | os.PathLike[str]
) -> Path:
    """Write ``policy`` (its features extractor a :class:`GomokuCNN`) to ``path``
    atomically: its weights in half precision and what rebuilds it."""
    extractor = policy.features_extractor
    if not isinstance(extractor, GomokuCNN):
        raise ValueError(
            f"only policies on GomokuCNN features save this way, not "
            f"{type(extractor).__name__}; save the model's zip instead"
        )
    if policy.activation_fn is not torch.nn.Tanh:
        raise ValueError(
            f"only the default activation (Tanh) saves this way, not "
            f"{policy.activation_fn.__name__}; save the model's zip instead"
        )
    checkpoint = {
        "format": FORMAT,
        "observation_shape": list(policy.observation_space.shape),
        "observation_dtype": str(policy.observation_space.dtype),
        "features": dict(policy.features_extractor_kwargs),
        "net_arch": policy.net_arch,
        "share_features_extractor": bool(policy.share_features_extractor),
        "state_dict": _halved(policy.state_dict()),
    }
    return write_atomically(
        path, lambda temporary: torch.save(checkpoint, temporary), create_parents=True
    )


def load_policy_weights(path: str | os.PathLike[str]) -> MaskableActorCriticPolicy:
    """The policy saved by :func:`save_policy_weights` at ``path``, in float32.

    Raises:
        ValueError: naming the file: not a regular file, too large, not a policy
            file of this format, a shape out of range, or weights that do not fit.
    """
    path, checkpoint = read_weights_file(
        path, "Stable-Baselines3 policy file", FILE_LIMIT
    )
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        raise ValueError(
            f"{str(path)!r} is not an SB3 policy file written by save_policy_weights"
        )
    try:
        policy = _built(checkpoint)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{str(path)!r} describes no valid policy: {error}") from None
    state = checkpoint["state_dict"]
    if isinstance(state, dict):
        state = {
            name: tensor.float() if _is_half(tensor) else tensor
            for name, tensor in state.items()
        }
    load_checked_state(policy, state, str(path), described="the SB3 policy")
    policy.set_training_mode(False)
    return policy


def load_zip_policy(path: str | os.PathLike[str]) -> MaskableActorCriticPolicy:
    """The policy of the MaskablePPO zip at ``path`` (``model.save``) on GomokuCNN
    features, read without unpickling: its shape from the plain copies of the
    settings in the zip's ``data``, its weights from ``policy.pth`` (weights only).

    Raises:
        ValueError: one line naming the file: not a regular file, too large, not a
            zip, damaged, a policy of another kind, or weights that do not fit.
    """
    path = check_regular_file(path, "a MaskablePPO model", ZIP_LIMIT)
    check_inflated_size(path, "a MaskablePPO model")
    try:
        with zipfile.ZipFile(path) as archive:
            settings = json.loads(archive.read("data"))
            weights = io.BytesIO(archive.read("policy.pth"))
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, RecursionError) as error:
        raise _not_a_model(path, _zip_failure(error)) from None
    try:
        state = torch.load(weights, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for damaged weights
        raise _not_a_model(path, f"policy.pth: {load_failure(error, path)}") from None
    try:
        policy = _built(_zip_checkpoint(settings))
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{str(path)!r} describes no valid policy: {error}") from None
    load_checked_state(policy, state, str(path), described="the SB3 policy")
    policy.set_training_mode(False)
    return policy


def _zip_checkpoint(settings: Any) -> dict[str, Any]:
    """What a policy file would hold, from a zip's plain settings (SB3 writes the
    readable fields of each pickled object beside it)."""
    policy, space = settings["policy_kwargs"], settings["observation_space"]
    if not isinstance(policy, dict) or not isinstance(space, dict):
        raise ValueError("no plain copy of the policy's settings and observations")
    named = set(policy) - {":type:", ":serialized:"}
    if not named <= ZIP_SETTINGS:
        raise ValueError(
            f"policy settings {sorted(named - ZIP_SETTINGS)} shape a network that is "
            f"rebuilt only by unpickling; {TRUSTED_ONLY}"
        )
    if policy.get("features_extractor_class") != GOMOKU_CNN:
        raise ValueError(
            f"features extractor {policy.get('features_extractor_class')!r} is not "
            f"GomokuCNN; {TRUSTED_ONLY}"
        )
    return {
        "observation_shape": space["_shape"],
        "observation_dtype": space["dtype"],
        "features": policy["features_extractor_kwargs"],
        "net_arch": policy.get("net_arch"),
        "share_features_extractor": policy.get("share_features_extractor", True),
    }


def _not_a_model(path: Path, reason: str) -> ValueError:
    return ValueError(
        f"{str(path)!r} is not a valid saved MaskablePPO model ({reason}); save one "
        "with model.save(PATH), as examples/sb3_maskable_ppo.py does"
    )


def _zip_failure(error: Exception) -> str:
    """Why a zip could not be read, in a phrase."""
    if isinstance(error, zipfile.BadZipFile):
        return "not a zip archive: truncated, or another kind of file"
    if isinstance(error, KeyError):
        return "no data or policy.pth in the archive"
    if isinstance(error, RecursionError):
        return "damaged: its settings are JSON nested too deep"
    first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return f"damaged: {first_line}"


def _halved(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """``state`` in half precision, a tensor shared under several names (the
    features extractor the actor and critic share) still shared, so saved once."""
    halves: dict[int, torch.Tensor] = {}
    return {
        name: halves.setdefault(tensor.data_ptr(), tensor.half())
        if tensor.is_floating_point()
        else tensor
        for name, tensor in state.items()
    }


def _is_half(tensor: Any) -> bool:
    return torch.is_tensor(tensor) and tensor.dtype == torch.float16


def _built(checkpoint: dict[str, Any]) -> MaskableActorCriticPolicy:
    """A fresh policy of the checkpoint's shape, each size checked first."""
    shape, size = _checked_board(checkpoint["observation_shape"])
    dtype, net_arch = checkpoint["observation_dtype"], checkpoint["net_arch"]
    if dtype not in OBSERVATION_DTYPES:
        raise ValueError(
            f"observation dtype {dtype!r} is not one of {OBSERVATION_DTYPES}"
        )
    _check_layers(net_arch)
    return MaskableActorCriticPolicy(
        observation_space=spaces.Box(0, 1, tuple(shape), dtype=np.dtype(dtype)),
        action_space=spaces.Discrete(size * size),
        lr_schedule=lambda _: 0.0,
        net_arch=net_arch,
        features_extractor_class=GomokuCNN,
        features_extractor_kwargs=_checked_features(checkpoint["features"]),
        normalize_images=False,
        share_features_extractor=bool(checkpoint["share_features_extractor"]),
    )


def _checked_board(shape: Any) -> tuple[list[int], int]:
    """The observation shape and its board side: planes of a square board in
    either layout, the side within the rules core's bounds."""
    size = shape[1] if isinstance(shape, list) and len(shape) == 3 else None
    if shape not in ([size, size, PLANE_COUNT], [PLANE_COUNT, size, size]):
        raise ValueError(f"observation shape {shape!r} is not a board's planes")
    if not isinstance(size, int) or not MIN_BOARD_SIZE <= size <= MAX_BOARD_SIZE:
        raise ValueError(
            f"observation shape {shape!r}: a board side from {MIN_BOARD_SIZE} to "
            f"{MAX_BOARD_SIZE}"
        )
    return shape, size


def _checked_features(features: Any) -> dict[str, Any]:
    """GomokuCNN's keyword arguments, every size bounded before a layer is built."""
    if not isinstance(features, dict) or not (
        SIZED_FEATURES <= set(features) <= {*SIZED_FEATURES, *OPTIONAL_FEATURES}
    ):
        raise ValueError(f"features {features!r} are not GomokuCNN's")
    for name in SIZED_FEATURES:
        _check_size(name, features[name], LIMITS[name])
    if features.get("cell_features", 0) != 0:
        _check_size("cell_features", features["cell_features"], LIMITS["cell_features"])
    if not isinstance(features.get("border", False), bool):
        raise ValueError(f"border {features['border']!r} is not a bool")
    return features


def _check_layers(net_arch: Any) -> None:
    """SB3's ``net_arch`` (a list, or ``pi``/``vf`` lists, or None for SB3's
    default): a few bounded layers."""
    if net_arch is None:
        return
    layers = net_arch if isinstance(net_arch, list) else None
    if isinstance(net_arch, dict) and set(net_arch) <= {"pi", "vf"}:
        layers = [width for widths in net_arch.values() for width in widths]
    if layers is None or len(layers) > 8:
        raise ValueError(f"net_arch {net_arch!r} is not a few hidden layers")
    for width in layers:
        _check_size("a hidden layer", width, LIMITS["hidden"])


def _check_size(name: str, value: Any, limit: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= limit:
        raise ValueError(f"{name} {value!r} is not a whole number from 1 to {limit}")
