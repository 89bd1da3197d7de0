"""Learning curves: how an agent's strength grows over a training run's cost.

Two kinds, one module. :class:`LearningCurve` is a recipe's own curve: its score
against fixed opponent specs at points of the run (the model-free recipe writes it as
it trains), one CSV row per evaluation rewritten atomically, and a PNG of the scores
over CPU hours and over env steps (needs the ``plot`` extra).

The other rates an AlphaZero run's kept networks on a fixed reference scale.

``gomoku train --snapshot-every N`` keeps the network every N iterations in
``RUN/snapshots/``, each with the run's counters in its metadata (games, wall and CPU
seconds). Every snapshot plays the reference ladder's anchors (their ratings held
fixed, as ``gomoku rate`` does), so the points share one Elo scale and one axis of
cost: the picture a user looks at before spending their own compute.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from agents.scales.reference import RatingScale
from gomoku_apps.arena.match import Arena
from gomoku_apps.arena.rate import rate_agent
from gomoku_env.fields import check_number
from gomoku_env.files import (
    read_text_file,
    write_bytes_atomically,
    write_text_atomically,
)

COLUMNS = (
    "iteration",
    "self_play_games",
    "teacher_games",
    "hours",
    "cpu_hours",
    "rating",
    "low",
    "high",
    "games_per_anchor",
)


@dataclass(frozen=True)
class Snapshot:
    """One kept network and the run's counters when it was kept."""

    path: Path
    iteration: int
    self_play_games: int
    teacher_games: int
    hours: float
    cpu_hours: float


def read_snapshots(paths: list[Path]) -> list[Snapshot]:
    """The snapshots in ``paths`` (weights files written by ``gomoku train``), in the
    order of their iterations."""
    from agents.alphazero.checkpoint import read_checkpoint

    snapshots = []
    for path in paths:
        progress = read_checkpoint(path).get("metadata", {}).get("progress")
        if not progress:
            raise ValueError(
                f"{str(path)!r} records no training progress: rate networks written "
                "by gomoku train (its snapshots or --export)"
            )
        try:
            snapshots.append(
                Snapshot(
                    path=path,
                    iteration=int(progress["iteration"]),
                    self_play_games=int(progress["games"]),
                    teacher_games=int(progress.get("teacher_games", 0)),
                    hours=check_number("seconds", float(progress["seconds"])) / 3600,
                    cpu_hours=check_number(
                        "cpu_seconds", float(progress["cpu_seconds"])
                    )
                    / 3600,
                )
            )
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise ValueError(
                f"{str(path)!r}: its training progress is malformed ({error!r})"
            ) from None
    return sorted(snapshots, key=lambda snapshot: snapshot.iteration)


def rate_snapshots(
    arena: Arena,
    snapshots: list[Snapshot],
    scale: RatingScale,
    games_per_anchor: int,
    agent_options: str = "simulations=200",
    on_point: Callable[[dict[str, float]], None] | None = None,
) -> list[dict[str, float]]:
    """Rate every snapshot as ``alphazero:weights=PATH,<agent_options>`` on ``scale``;
    one row of :data:`COLUMNS` each."""
    rows = []
    for snapshot in snapshots:
        spec = f"alphazero:weights={snapshot.path},{agent_options}"
        rated = rate_agent(arena, spec, scale, games_per_anchor)
        row = {
            "iteration": snapshot.iteration,
            "self_play_games": snapshot.self_play_games,
            "teacher_games": snapshot.teacher_games,
            "hours": snapshot.hours,
            "cpu_hours": snapshot.cpu_hours,
            "rating": rated.rating.rating,
            "low": rated.rating.low,
            "high": rated.rating.high,
            "games_per_anchor": games_per_anchor,
        }
        rows.append(row)
        if on_point is not None:
            on_point(row)
    return rows


def write_curve_csv(rows: list[dict[str, float]], path: Path) -> None:
    """The rows as CSV, written atomically."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(
            {
                name: f"{value:.4g}" if isinstance(value, float) else value
                for name, value in row.items()
            }
        )
    write_text_atomically(path, buffer.getvalue(), create_parents=True)


def plot_curve(
    curves: dict[str, list[dict[str, float]]], scale_note: str, path: Path
) -> None:
    """Rating (with its interval) against CPU hours and against self-play games, one
    line per run (``curves``: label -> rows), drawn to a PNG (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for label, rows in curves.items():
        for axis, column in zip(axes, ("cpu_hours", "self_play_games"), strict=True):
            x = [row[column] for row in rows]
            y = [row["rating"] for row in rows]
            low = [row["rating"] - row["low"] for row in rows]
            high = [row["high"] - row["rating"] for row in rows]
            axis.errorbar(x, y, yerr=[low, high], marker="o", capsize=3, label=label)
    axes[0].set_xlabel("CPU hours of the run (teacher games and self-play)")
    axes[1].set_xlabel("self-play games")
    axes[0].set_ylabel("Elo, anchors' ratings held fixed")
    figure.suptitle(f"Rated on {scale_note}")
    for axis in axes:
        axis.grid(alpha=0.3)
        axis.legend()
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    plt.close(figure)
    write_bytes_atomically(path, buffer.getvalue(), create_parents=True)


SERIES_MARKERS = ("o", "s", "^", "D", "v")
SERIES_LINES = ("-", "--", ":", "-.")


def series_style(number: int) -> dict[str, object]:
    """Matplotlib style of the curve's ``number``-th series: each later series is
    drawn on top with a smaller, different marker and another line style, so two
    series with the same scores (both at 1.0, say) both stay visible, as their legend
    entries promise."""
    return {
        "marker": SERIES_MARKERS[number % len(SERIES_MARKERS)],
        "markersize": max(3, 10 - 2 * number),
        "linestyle": SERIES_LINES[number % len(SERIES_LINES)],
        "linewidth": max(1.0, 3.0 - 0.7 * number),
        "zorder": 2 + number,
    }


class LearningCurve:
    """Scores against ``opponents`` (agent specs) at points of a training run.

    Args:
        csv_path: the CSV written after every :meth:`add`.
        opponents: the specs whose scores each row holds, in column order.
        png_path: where :meth:`plot` draws the curve (None: no picture).
    """

    def __init__(
        self,
        csv_path: str | os.PathLike[str],
        opponents: Sequence[str],
        png_path: str | os.PathLike[str] | None = None,
    ) -> None:
        if not opponents:
            raise ValueError("a learning curve needs at least one opponent spec")
        self.csv_path = Path(csv_path)
        self.png_path = None if png_path is None else Path(png_path)
        self.opponents = tuple(opponents)
        self.rows: list[dict[str, float]] = []

    @property
    def columns(self) -> tuple[str, ...]:
        return ("steps", "cpu_hours", *self.opponents)

    def load_rows(self) -> None:
        """Take the rows of an earlier run's CSV at ``csv_path`` (a resumed run goes
        on from them); nothing if there is none.

        Raises:
            ValueError: the CSV's columns are not this curve's.
        """
        if not self.csv_path.exists():
            return
        text = read_text_file(self.csv_path, "a learning-curve CSV")
        reader = csv.DictReader(io.StringIO(text))
        if tuple(reader.fieldnames or ()) != self.columns:
            raise ValueError(
                f"{str(self.csv_path)!r} has the columns {reader.fieldnames}, "
                f"not this curve's {list(self.columns)}"
            )
        self.rows = []
        for number, row in enumerate(reader, start=2):
            try:
                self.rows.append(
                    {
                        name: int(value)
                        if name == "steps"
                        else check_number(name, float(value))
                        for name, value in row.items()
                    }
                )
            except (TypeError, ValueError) as error:  # a short row, a word, NaN
                where = f"{str(self.csv_path)!r}, line {number}"
                raise ValueError(f"{where}: not a curve row ({error})") from None

    def add(self, steps: int, cpu_hours: float, scores: Mapping[str, float]) -> None:
        """Record one evaluation and rewrite the CSV (and the PNG, if any).

        Raises:
            ValueError: ``scores`` lacks an opponent or holds a score outside [0, 1].
        """
        missing = [spec for spec in self.opponents if spec not in scores]
        if missing:
            raise ValueError(f"scores lack the opponents {missing}; got {dict(scores)}")
        for spec in self.opponents:
            if not 0.0 <= scores[spec] <= 1.0:
                raise ValueError(
                    f"score against {spec!r} must be in [0, 1], got {scores[spec]}"
                )
        row = {"steps": steps, "cpu_hours": cpu_hours}
        row.update({spec: float(scores[spec]) for spec in self.opponents})
        self.rows.append(row)
        self._write_csv()
        if self.png_path is not None:
            self.plot()

    def _write_csv(self) -> None:
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=self.columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        write_text_atomically(self.csv_path, text.getvalue(), create_parents=True)

    def plot(self) -> None:
        """Draw every opponent's score over CPU hours (left) and env steps (right)
        to ``png_path``."""
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot

        figure, panels = pyplot.subplots(1, 2, figsize=(11, 4), sharey=True)
        for axes, column, label in (
            (panels[0], "cpu_hours", "CPU hours"),
            (panels[1], "steps", "env steps"),
        ):
            x = [row[column] for row in self.rows]
            for number, spec in enumerate(self.opponents):
                y = [row[spec] for row in self.rows]
                axes.plot(x, y, label=spec, **series_style(number))
            axes.axhline(0.6, color="grey", linestyle=":", label="target vs heuristic")
            axes.set(xlabel=label, ylim=(-0.02, 1.02))
            axes.grid(alpha=0.3)
        panels[0].set_ylabel("score (win 1, draw 1/2)")
        panels[1].legend(loc="lower right")
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        pyplot.close(figure)
        write_bytes_atomically(self.png_path, buffer.getvalue(), create_parents=True)
