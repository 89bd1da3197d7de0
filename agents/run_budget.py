"""A training run's budget, env steps or CPU hours (whichever ends first), and the
models saved along it.

Runs of different libraries are compared at one budget: so many env
steps, or so much CPU time, whichever runs out first. A training loop calls
:meth:`RunBudget.spent` with the steps collected so far after each batch; at each
``k / checkpoints`` of the budget (of whichever of the two is further along) the model
is saved as ``<stem>-<steps><suffix>`` beside the run's final path and listed in
``checkpoints.csv`` there (:data:`CHECKPOINT_COLUMNS`), so the run's learning curve
can be measured afterwards, by the agent spec that plays the final model. CPU time is
this process's (``time.process_time``: all its threads, no other process).
"""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from gomoku_env.files import write_text_atomically

Model = TypeVar("Model")
CHECKPOINT_COLUMNS = ("path", "steps", "cpu_seconds", "wall_seconds")
"""The columns of a run's ``checkpoints.csv``: the file (beside it), the env steps
collected, and the CPU and wall seconds used when it was saved."""


class RunBudget(Generic[Model]):
    """The budget of one run and its checkpoints.

    Args:
        steps: env steps the run may collect.
        cpu_hours: CPU hours it may use (None: steps only).
        checkpoints: models to save along the run (0: none).
        path: where the run's final model goes; checkpoints go beside it.
        save: writes a model to a path (``save(path, model)``).
    """

    def __init__(
        self,
        steps: int,
        cpu_hours: float | None,
        checkpoints: int,
        path: str | os.PathLike[str],
        save: Callable[[Path, Model], object],
    ) -> None:
        self.steps = steps
        self.cpu_hours = cpu_hours
        self.checkpoints = checkpoints
        self.path = Path(path)
        self.save = save
        self.collected = 0
        self.rows: list[dict[str, object]] = []
        self.started_cpu = time.process_time()
        self.started_wall = time.monotonic()

    def cpu_seconds(self) -> float:
        """CPU seconds this process has used since the run started."""
        return time.process_time() - self.started_cpu

    def progress(self, collected: int) -> float:
        """How much of the budget ``collected`` steps (and the CPU used) are: 1 when
        spent."""
        done = collected / self.steps
        if self.cpu_hours is not None:
            done = max(done, self.cpu_seconds() / (3600 * self.cpu_hours))
        return done

    def spent(self, collected: int, model: Model) -> bool:
        """Save ``model`` if ``collected`` steps (or the CPU used) reached the next
        checkpoint; whether the budget is spent."""
        self.collected = collected
        progress = self.progress(collected)
        reached = min(self.checkpoints, int(progress * self.checkpoints))
        if reached > len(self.rows):
            self.save_checkpoint(model)
        return progress >= 1

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
            {
                "path": name,
                "steps": self.collected,
                "cpu_seconds": f"{self.cpu_seconds():.1f}",
                "wall_seconds": f"{time.monotonic() - self.started_wall:.1f}",
            }
        )
        text = io.StringIO()
        writer = csv.DictWriter(text, CHECKPOINT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        write_text_atomically(self.path.with_name("checkpoints.csv"), text.getvalue())
        return path
