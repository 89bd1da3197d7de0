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


def bundled_names() -> list[str]:
    """Names of the shipped networks, sorted."""
    return sorted(path.stem for path in WEIGHTS_DIR.glob("*.pt"))


def resolve_weights(weights: str | Path) -> Path:
    """The file that ``weights`` names: a bundled network or an existing path."""
    if not isinstance(weights, (str, Path)) or not str(weights):
        raise ValueError(f"weights must be a bundled name or a path, got {weights!r}")
    bundled = WEIGHTS_DIR / f"{weights}.pt"
    if isinstance(weights, str) and bundled.is_file():
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
    for name in (f"{board_size}x{board_size}", FALLBACK):
        if (WEIGHTS_DIR / f"{name}.pt").is_file():
            return WEIGHTS_DIR / f"{name}.pt"
    names = bundled_names()
    if names:
        return WEIGHTS_DIR / f"{names[0]}.pt"
    raise ValueError("no AlphaZero network is shipped with this copy of gomoku_env")
