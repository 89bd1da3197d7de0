"""Optional dependencies: a clear error naming the extra to install when one is missing.

The core (``pip install gomoku_env``) needs numpy, numba, Gymnasium and PettingZoo only.
AlphaZero needs torch and the SB3 integration needs Stable-Baselines3; their packages
call :func:`require_extra` first, so a user without them reads which extra to install
instead of a bare ``No module named 'torch'``.
"""

from __future__ import annotations

import importlib

TORCH_CPU_HINT = (
    "for the CPU build of torch: "
    "pip install torch --index-url https://download.pytorch.org/whl/cpu"
)


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message names the extra."""


def require_extra(modules: tuple[str, ...], extra: str, purpose: str) -> None:
    """Import each of ``modules``, or raise :class:`MissingExtraError` saying that
    ``purpose`` needs it and that ``pip install 'gomoku_env[EXTRA]'`` installs it."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as error:
            hint = f"; {TORCH_CPU_HINT}" if name == "torch" else ""
            raise MissingExtraError(
                f"{purpose} needs {name}, which is not installed: "
                f"pip install 'gomoku_env[{extra}]'{hint}"
            ) from error
