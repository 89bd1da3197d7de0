"""Training metrics: one CSV row per iteration, and a PNG plot drawn from the CSV.

The CSV is rewritten atomically after each row (it stays small), so a killed run never
leaves half a line, and a resumed run carries on appending to the same history.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from gomoku_env.files import (
    read_text_file,
    write_bytes_atomically,
    write_text_atomically,
)

COLUMNS = (
    "iteration",
    "games",
    "samples",
    "train_steps",
    "hours",
    "cpu_hours",
    "loss",
    "value_loss",
    "policy_loss",
    "games_per_hour",
    "samples_per_hour",
    "win_rate_vs_best",
    "win_rate_vs_mcts",
    "note",
)


class MetricsLog:
    """Rows of :data:`COLUMNS` kept in memory and mirrored to a CSV file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.rows: list[dict[str, str]] = []
        if self.path.exists():
            text = read_text_file(self.path, "a training metrics CSV file")
            self.rows = list(csv.DictReader(io.StringIO(text, newline="")))

    def append(self, row: dict[str, float | int | str | None]) -> None:
        """Add one row (missing columns left blank) and rewrite the file."""
        unknown = set(row) - set(COLUMNS)
        if unknown:
            raise ValueError(
                f"unknown metrics columns {sorted(unknown)}; known: {COLUMNS}"
            )
        self.rows.append({name: _format(row.get(name)) for name in COLUMNS})
        self._write()

    def keep_first(self, count: int) -> None:
        """Drop the rows after the first ``count`` (those of an unfinished iteration)."""
        if len(self.rows) > count:
            self.rows = self.rows[:count]
            self._write()

    def _write(self) -> None:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(self.rows)
        write_text_atomically(self.path, buffer.getvalue(), create_parents=True)


def _format(value: float | int | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _column(rows: list[dict[str, str]], name: str) -> tuple[list[float], list[float]]:
    """(games, values) for the rows where column ``name`` is filled."""
    pairs = [(float(row["games"]), float(row[name])) for row in rows if row.get(name)]
    return [games for games, _ in pairs], [value for _, value in pairs]


def plot_metrics(
    csv_path: str | os.PathLike[str], png_path: str | os.PathLike[str]
) -> None:
    """Draw losses, win rates and throughput against self-play games into a PNG: a
    panel per kind of figure the run has (no evaluation match: no score panel)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    rows = MetricsLog(csv_path).rows
    panels = [
        (names, label)
        for names, label in (
            (("loss", "value_loss", "policy_loss"), "loss"),
            (("win_rate_vs_best", "win_rate_vs_mcts"), "score (draw = ½)"),
            (("games_per_hour", "samples_per_hour"), "per hour"),
        )
        if any(_column(rows, name)[0] for name in names)  # no empty panel
    ] or [(("loss",), "loss")]
    figure, axes = pyplot.subplots(
        1, len(panels), figsize=(5 * len(panels), 4), squeeze=False
    )
    for axis, (names, label) in zip(axes[0], panels, strict=True):
        for name in names:
            games, values = _column(rows, name)
            if not games:
                continue
            axis.plot(
                games, values, marker="." if len(games) < 30 else None, label=name
            )
        axis.set_xlabel("self-play games")
        axis.set_ylabel(label)
        if axis.get_legend_handles_labels()[0]:
            axis.legend()
        axis.grid(alpha=0.3)
        if label == "per hour" and all(
            value > 0 for name in names for value in _column(rows, name)[1]
        ):
            axis.set_yscale("log")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    pyplot.close(figure)
    write_bytes_atomically(png_path, buffer.getvalue(), create_parents=True)
