"""The files of a zoo run, read and checked: ``zoo-run.json`` (the training's command
and cost), ``zoo-evaluation.json`` (its learning curve) and the models the run kept.

Every file is read as a regular file of at most 16 MiB; one that is cut short, not an
object, missing a key, holding a value of the wrong type or naming a route the zoo does
not know is a :class:`ZooFileError` naming the file and what is wrong, never a
traceback. The models are listed from ``checkpoints.csv`` or AlphaZero's snapshots.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.training.run_budget import CHECKPOINTS_FILE, read_checkpoint_rows
from gomoku_env.files import read_text_file

RUN_FILE, EVALUATION_FILE = "zoo-run.json", "zoo-evaluation.json"
"""What ``scripts/zoo.py`` writes into a run's folder: the training (command, cost) and
the evaluation (curve, rating)."""


class ZooFileError(ValueError):
    """A zoo file that is not what ``scripts/zoo.py`` writes: one line naming it."""


RUN_KEYS = {"route": str, "seed": int, "command": str, "libraries": str}
POINT_KEYS = {
    "learner_steps": int,
    "cpu_hours": float,
    "wall_hours": float,
    "score_vs_heuristic": float,
    "rating": int,
    "low": int,
    "high": int,
    "rated_games": int,
    "scale": str,
    "rate_command": str,
}
"""A finished curve point's keys (an unfinished evaluation's last point may lack the
measurements, which the next evaluation adds)."""
MEASURED = ("score_vs_heuristic", "rating", "low", "high", "rated_games", "scale",
            "rate_command")  # fmt: skip


def _json_object(path: Path, kind: str) -> dict[str, Any]:
    try:
        found = json.loads(read_text_file(path, kind, ZooFileError))
    except json.JSONDecodeError as error:
        raise ZooFileError(f"{path}: not JSON ({error}); is it {kind}?") from None
    except RecursionError:
        raise ZooFileError(f"{path}: JSON nested too deep; is it {kind}?") from None
    if not isinstance(found, dict):
        raise ZooFileError(f"{path}: a {type(found).__name__}, not {kind}'s object")
    return found


def _check_keys(
    path: Path, found: dict[str, Any], keys: dict[str, type], where: str = ""
) -> None:
    for key, kind in keys.items():
        if key not in found:
            raise ZooFileError(f"{path}: {where}no {key!r}")
        value = found[key]
        numeric = kind is float and isinstance(value, int)
        wrong_bool = isinstance(value, bool) and kind is not bool
        if wrong_bool or not (isinstance(value, kind) or numeric):
            raise ZooFileError(
                f"{path}: {where}{key!r} is {str(value)[:80]!r}, not {kind.__name__}"
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise ZooFileError(f"{path}: {where}{key!r} is {value}, not finite")


def read_run_record(path: Path, routes: Collection[str]) -> dict[str, Any]:
    """A run's ``zoo-run.json``: its route (one of ``routes``), seed, budget in CPU
    hours (0.5 where the file predates budgets) and command."""
    record = _json_object(path, "a zoo run file")
    _check_keys(path, record, RUN_KEYS)
    record.setdefault("budget_hours", 0.5)  # the one budget of the runs before budgets
    _check_keys(path, record, {"budget_hours": float})
    if record["route"] not in routes:
        raise ZooFileError(
            f"{path}: unknown route {record['route'][:80]!r}; the zoo's routes are "
            + ", ".join(sorted(routes))
        )
    return record


def read_evaluation(path: Path) -> dict[str, Any]:
    """A run's ``zoo-evaluation.json``: its curve, whether it finished, the model's
    size; a finished one's points each measured."""
    evaluation = _json_object(path, "a zoo evaluation")
    _check_keys(path, evaluation, {"curve": list, "finished": bool, "model_bytes": int})
    curve = evaluation["curve"]
    if evaluation["finished"] and not curve:
        raise ZooFileError(f"{path}: a finished evaluation with no curve")
    for number, point in enumerate(curve, 1):
        if not isinstance(point, dict):
            raise ZooFileError(f"{path}: curve point {number} is not an object")
        keys = POINT_KEYS
        if not evaluation["finished"]:
            keys = {key: kind for key, kind in keys.items() if key not in MEASURED}
        _check_keys(path, point, keys, f"curve point {number}: ")
    return evaluation


@dataclass(frozen=True)
class Checkpoint:
    """A model kept along a run: its file and the run's counters then."""

    path: Path
    learner_steps: int
    cpu_hours: float
    wall_hours: float


def checkpoints(route: Any, folder: Path) -> list[Checkpoint]:
    """The models a run of ``route`` kept, in order: listed in ``checkpoints.csv``
    (beside the models), or AlphaZero's snapshots (their counters in their metadata;
    its env steps are its self-play positions)."""
    if not route.snapshots:
        rows = read_checkpoint_rows(folder / CHECKPOINTS_FILE)
        return [
            Checkpoint(
                folder / row["path"], int(row["steps"]) // route.seats,
                float(row["cpu_seconds"]) / 3600, float(row["wall_seconds"]) / 3600,
            )
            for row in rows
        ]  # fmt: skip
    from agents.alphazero.checkpoint import read_checkpoint

    kept = []
    for path in sorted((folder / "snapshots").glob("iteration-*.pt")):
        progress = read_checkpoint(path)["metadata"]["progress"]
        kept.append(
            Checkpoint(
                path, int(progress["samples"]), progress["cpu_seconds"] / 3600,
                progress["seconds"] / 3600,
            )
        )  # fmt: skip
    return kept


def spread(kept: list[Checkpoint], count: int) -> list[Checkpoint]:
    """At most ``count`` of ``kept``, evenly spaced, the last always among them."""
    if len(kept) <= count:
        return kept
    if count == 1:
        return kept[-1:]
    picks = {round(i * (len(kept) - 1) / (count - 1)) for i in range(count)}
    return [kept[i] for i in sorted(picks)]
