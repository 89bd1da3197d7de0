"""A training run's budget, env steps or CPU hours (whichever ends first), and the
models saved along it.

Runs of different libraries are compared at one budget: so many env
steps, or so much CPU time, whichever runs out first. A training loop calls
:meth:`RunBudget.spent` with the steps collected so far after each batch; at each
``k / checkpoints`` of the work budget (the env steps, or a count of the run's own such
as games) the model is saved as ``<stem>-<steps><suffix>`` beside the run's final path
and listed in ``checkpoints.csv`` there (:data:`CHECKPOINT_COLUMNS`), so the run's
learning curve can be measured afterwards, by the agent spec that plays the final
model. The CPU budget only ends a run (its last model is saved then): a checkpoint's
name never depends on the machine's speed, so a seeded run that ends on steps writes
the same files everywhere, and one cut short by CPU time writes the same files up to
where it stopped. CPU time is this process's (``time.process_time``: all its threads,
no other process). The final path's folder is made when the budget is.
"""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from gomoku_env.fields import check_number
from gomoku_env.files import read_text_file, write_text_atomically

Model = TypeVar("Model")
CHECKPOINT_COLUMNS = ("path", "steps", "cpu_seconds", "wall_seconds")
"""The columns of a run's ``checkpoints.csv``: the file (beside it), the env steps
collected, and the CPU and wall seconds used when it was saved."""
CHECKPOINTS_FILE = "checkpoints.csv"
CHECKPOINTS_LIMIT = 1 << 20
"""Bytes a ``checkpoints.csv`` may have (a row is about 50)."""


class RunBudget(Generic[Model]):
    """The budget of one run and its checkpoints.

    Args:
        steps: env steps the run may collect.
        cpu_hours: CPU hours it may use (None: steps only).
        checkpoints: models to save along the run (0: none).
        path: where the run's final model goes; checkpoints go beside it.
        save: writes a model to a path (``save(path, model)``).
        started_cpu: this process's CPU seconds (``time.process_time``) when the
            run's CPU budget began: None for now; 0.0 for the process's start, so
            that what the process did before the budget was made (a warm start, say)
            counts in it.
    """

    def __init__(
        self,
        steps: int,
        cpu_hours: float | None,
        checkpoints: int,
        path: str | os.PathLike[str],
        save: Callable[[Path, Model], object],
        started_cpu: float | None = None,
    ) -> None:
        self.steps = steps
        self.cpu_hours = cpu_hours
        self.checkpoints = checkpoints
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.save = save
        self.collected = 0
        self.rows: list[dict[str, object]] = []
        self.started_cpu = time.process_time() if started_cpu is None else started_cpu
        self.started_wall = time.monotonic()

    def cpu_seconds(self) -> float:
        """CPU seconds this process has used since the run started."""
        return time.process_time() - self.started_cpu

    def progress(self, collected: int, other: float = 0.0) -> float:
        """How much of the budget ``collected`` steps (and the CPU used) are: 1 when
        spent. ``other``: the share spent of a budget the run counts itself (games,
        say), whichever is further along."""
        done = max(collected / self.steps, other)
        if self.cpu_hours is not None:
            done = max(done, self.cpu_seconds() / (3600 * self.cpu_hours))
        return done

    def spent(self, collected: int, model: Model, other: float = 0.0) -> bool:
        """Save ``model`` if ``collected`` steps (or ``other``, the share of a work
        budget the run counts itself) reached the next checkpoint; whether the budget
        (the CPU time too) is spent."""
        self.collected = collected
        work = max(collected / self.steps, other)
        reached = min(self.checkpoints, int(work * self.checkpoints))
        if reached > len(self.rows):
            self.save_checkpoint(model)
        return self.progress(collected, other) >= 1

    def finish(self, model: Model) -> None:
        """Save the final ``model`` as the last checkpoint, unless it is saved (a run
        whose batches do not divide its steps ends short of the last one)."""
        if self.checkpoints and (
            not self.rows or self.rows[-1]["steps"] != self.collected
        ):
            self.save_checkpoint(model)

    def save_checkpoint(self, model: Model) -> Path:
        """Save ``model`` as it is now and list it in ``checkpoints.csv``."""
        name = f"{self.path.stem}-{self.collected:09d}{self.path.suffix}"
        path = self.path.with_name(name)
        self.save(path, model)
        self.rows.append(
            checkpoint_row(
                name,
                self.collected,
                self.cpu_seconds(),
                time.monotonic() - self.started_wall,
            )
        )
        write_checkpoint_rows(self.path.with_name(CHECKPOINTS_FILE), self.rows)
        return path


def checkpoint_row(
    name: str, steps: int, cpu_seconds: float, wall_seconds: float
) -> dict[str, object]:
    """One row of ``checkpoints.csv``: the file's name (beside it) and the run's
    counters when it was saved."""
    return {
        "path": name,
        "steps": steps,
        "cpu_seconds": f"{cpu_seconds:.1f}",
        "wall_seconds": f"{wall_seconds:.1f}",
    }


def write_checkpoint_rows(path: Path, rows: list[dict[str, object]]) -> None:
    """Write ``rows`` (:data:`CHECKPOINT_COLUMNS`) to ``path`` at once."""
    text = io.StringIO()
    writer = csv.DictWriter(text, CHECKPOINT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_text_atomically(path, text.getvalue())


def read_checkpoint_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a run's ``checkpoints.csv`` (none if there is none yet), checked
    for its columns; a regular file of at most :data:`CHECKPOINTS_LIMIT` bytes."""
    if not path.exists():
        return []
    text = read_text_file(path, "a checkpoints file", limit=CHECKPOINTS_LIMIT)
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != CHECKPOINT_COLUMNS:
        raise ValueError(
            f"{path}: not a checkpoints file, its columns are {reader.fieldnames}, "
            f"not {list(CHECKPOINT_COLUMNS)}"
        )
    rows = list(reader)
    for number, row in enumerate(rows, start=2):
        _check_row(row, f"{path}, line {number}")
    return rows


def _check_row(row: dict[str, str], where: str) -> None:
    """A checkpoint row: a model file beside the list (a plain name: no folder, so a
    row never points outside the run), whole env steps, finite seconds >= 0."""
    name = row.get("path")
    if not name or Path(name).name != name or name in (".", ".."):
        raise ValueError(f"{where}: path {name!r} is not a file name in the run folder")
    steps = row.get("steps") or ""
    if not (steps.isascii() and steps.isdigit()):
        raise ValueError(f"{where}: steps {steps!r} is not a whole number")
    for column in ("cpu_seconds", "wall_seconds"):
        try:
            check_number(column, float(row.get(column) or "nan"), minimum=0)
        except ValueError:
            raise ValueError(
                f"{where}: {column} {row.get(column)!r} is not a finite number >= 0"
            ) from None
