"""The networks shipped inside the package, and how a weights argument is resolved.

``weights`` options accept a bundled name (the file stem in
``agents/alphazero/weights``, such as ``"9x9"``) or a path to a file written by
``gomoku train``. Without one, an agent uses the bundled network for its board size,
else the 15×15 one (the networks are fully convolutional, so any of them runs on any
board).
"""

from __future__ import annotations

from pathlib import Path

WEIGHTS_DIR = Path(__file__).parent / "weights"
FALLBACK = "15x15"
# Names served by another shipped file: the 9×9 network also plays 8×8 (see README).
ALIASES = {"8x8": "9x9"}


def bundled_names() -> list[str]:
    """Names of the shipped networks (aliases included), sorted."""
    files = {path.stem for path in WEIGHTS_DIR.glob("*.pt")}
    return sorted(files | {alias for alias, name in ALIASES.items() if name in files})


def _bundled_file(name: str) -> Path | None:
    path = WEIGHTS_DIR / f"{ALIASES.get(name, name)}.pt"
    return path if path.is_file() else None


def resolve_weights(weights: str | Path) -> Path:
    """The file that ``weights`` names: a bundled network or an existing path."""
    if not isinstance(weights, (str, Path)) or not str(weights):
        raise ValueError(f"weights must be a bundled name or a path, got {weights!r}")
    bundled = _bundled_file(weights) if isinstance(weights, str) else None
    if bundled is not None:
        return bundled
    path = Path(weights).expanduser()
    if path.is_file():
        return path
    raise ValueError(
        f"weights {str(weights)!r} is neither a bundled network "
        f"({', '.join(bundled_names()) or 'none shipped'}) nor an existing file"
    )


def default_weights(board_size: int) -> Path:
    """The bundled network for ``board_size``, else the fallback one."""
    for name in (f"{board_size}x{board_size}", FALLBACK, *bundled_names()):
        path = _bundled_file(name)
        if path is not None:
            return path
    raise ValueError("no AlphaZero network is shipped with this copy of gomoku_env")
