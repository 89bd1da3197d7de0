"""The files of a training run, and the manifest that makes each iteration one step.

An iteration writes its checkpoint and replay window under new names
(``latest-000012.pt``, ``replay-000012.npz``) and rewrites ``metrics.csv``, then
writes ``manifest.json`` atomically, last. The manifest names the files of the last
complete iteration and how many metrics rows belong to the run, so a kill anywhere
leaves one consistent state: the previous manifest's, until the new one is in place.
Resuming reads only what the manifest names; the files of an unfinished iteration and
the temporary files of a killed write are removed when a run starts.

Runs written before manifests existed (``latest.pt`` and ``replay.npz``) still resume.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from agents.alphazero.checkpoint import CheckpointError
from gomoku_env.files import read_text_file, write_text_atomically

MANIFEST = "manifest.json"
LEGACY_CHECKPOINT = "latest.pt"
LEGACY_REPLAY = "replay.npz"
# Files of past or unfinished iterations, and temporary files of our atomic writes.
STEP_PATTERNS = ("latest-*.pt", "replay-*.npz", LEGACY_CHECKPOINT, LEGACY_REPLAY)
TEMPORARY_PREFIXES = (".latest", ".replay", ".best.pt.", ".metrics.", f".{MANIFEST}.")


TORCH_WRITE_FAILURES = ("PytorchStreamWriter", "inline_container")
"""Words of the RuntimeError torch raises when its zip writer fails (a full disk)."""


class RunFolderError(ValueError):
    """A training run's folder that cannot be written (read-only, full disk)."""


@contextmanager
def run_folder_writes(directory: str | os.PathLike[str]) -> Iterator[None]:
    """Turn a failed write under ``directory`` into one :class:`RunFolderError`.

    An OSError (a read-only folder, a full disk) or torch's RuntimeError from its zip
    writer (``inline_container.cc``: a checkpoint that did not fit) becomes a message
    naming the folder and the cause. Every file of an iteration is written atomically
    and the manifest last, so the last committed iteration is intact.
    FileNotFoundError passes through: it already names the missing path.
    """
    try:
        yield
    except FileNotFoundError:
        raise
    except OSError as error:
        cause = error.strerror or str(error)
        raise RunFolderError(_cannot_write(directory, cause)) from None
    except RuntimeError as error:
        if not any(word in str(error) for word in TORCH_WRITE_FAILURES):
            raise
        cause = "torch could not write a checkpoint (is the disk full?)"
        raise RunFolderError(_cannot_write(directory, cause)) from None


def _cannot_write(directory: str | os.PathLike[str], cause: str) -> str:
    return (
        f"cannot write the training run in {str(directory)!r}: {cause}; "
        "its last committed iteration, if any, is intact"
    )


@dataclass(frozen=True)
class Manifest:
    """The committed state of a run: its checkpoint, its replay, its metrics rows.

    ``metrics_rows`` is None for a run from before manifests (all rows count).
    """

    checkpoint: str
    replay: str
    metrics_rows: int | None


class RunFiles:
    """Where a run's files live, and the manifest that commits an iteration."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        if self.directory.exists() and not self.directory.is_dir():
            raise ValueError(
                f"{str(self.directory)!r} is a file, not a folder for a training run"
            )

    def checkpoint_path(self, iteration: int) -> Path:
        return self.directory / f"latest-{iteration:06d}.pt"

    def replay_path(self, iteration: int) -> Path:
        return self.directory / f"replay-{iteration:06d}.npz"

    def snapshot_path(self, iteration: int) -> Path:
        """The network kept for the learning curve after ``iteration``."""
        return self.directory / "snapshots" / f"iteration-{iteration:06d}.pt"

    def read_manifest(self, metrics_rows: int) -> Manifest | None:
        """The run's committed state, or None for a new run.

        ``metrics_rows`` is how many rows ``metrics.csv`` holds: a manifest that
        commits more rows than that (or names anything but this folder's step files)
        is refused, since resuming from it would pass off missing rows as committed.
        """
        manifest = self._stored_manifest()
        if manifest is not None:
            self._check_manifest(manifest, metrics_rows)
        for name in (manifest.checkpoint, manifest.replay) if manifest else ():
            if not (self.directory / name).is_file():
                raise CheckpointError(
                    f"{str(self.directory / name)!r}, a file of the run's last "
                    "iteration, is missing: the run cannot resume where it stopped; "
                    "start again in another --out folder (--init can take its best.pt)"
                )
        return manifest

    def _check_manifest(self, manifest: Manifest, metrics_rows: int) -> None:
        path = str(self.directory / MANIFEST)
        for name in (manifest.checkpoint, manifest.replay):
            if not isinstance(name, str) or Path(name).name != name or not name:
                raise CheckpointError(
                    f"{path!r} names {name!r}, not a file name in the run's folder"
                )
        rows = manifest.metrics_rows
        if rows is None:
            return
        if isinstance(rows, bool) or not isinstance(rows, int) or rows < 0:
            raise CheckpointError(
                f"{path!r}: metrics_rows must be a whole number >= 0, got {rows!r}"
            )
        if rows > metrics_rows:
            raise CheckpointError(
                f"{path!r} commits {rows} metrics rows but "
                f"{str(self.directory / 'metrics.csv')!r} holds only {metrics_rows}: "
                "the run's files do not match its manifest; start again in another "
                "--out folder (--init can take its best.pt)"
            )

    def _stored_manifest(self) -> Manifest | None:
        path = self.directory / MANIFEST
        if not os.path.lexists(path):
            if (self.directory / LEGACY_CHECKPOINT).is_file():
                return Manifest(LEGACY_CHECKPOINT, LEGACY_REPLAY, None)
            return None
        try:
            text = read_text_file(path, "a training manifest", CheckpointError)
            return Manifest(**json.loads(text))
        except RecursionError:
            raise CheckpointError(
                f"cannot read {str(path)!r}: nested too deep"
            ) from None
        except (OSError, ValueError, TypeError) as error:
            raise CheckpointError(f"cannot read {str(path)!r}: {error}") from None

    def commit(self, manifest: Manifest) -> None:
        """Make ``manifest`` the run's state, then drop the files it replaced."""
        write_text_atomically(self.directory / MANIFEST, json.dumps(asdict(manifest)))
        self.remove_leftovers(manifest)

    def remove_leftovers(self, manifest: Manifest | None) -> None:
        """Delete step files that ``manifest`` does not name, and temporary files."""
        keep = {manifest.checkpoint, manifest.replay} if manifest else set()
        for pattern in STEP_PATTERNS:
            for path in self.directory.glob(pattern):
                if path.name not in keep:
                    path.unlink()
        for path in self.directory.glob(".*.tmp"):
            if path.name.startswith(TEMPORARY_PREFIXES):
                path.unlink()
