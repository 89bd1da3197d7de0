"""A learning curve: a trained agent's score against fixed opponents as training goes on.

One CSV row per evaluation (training steps, CPU hours, one score column per opponent),
rewritten atomically after each row so a killed run never leaves half a line, and a PNG
of the scores over CPU hours redrawn from the rows (needs the ``plot`` extra). The
recipe that trains to beat the heuristic writes its curve with it.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from gomoku_env.atomic import write_bytes_atomically, write_text_atomically


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
        """Draw every opponent's score over CPU hours to ``png_path``."""
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot

        figure, axes = pyplot.subplots(figsize=(7, 4))
        hours = [row["cpu_hours"] for row in self.rows]
        for spec in self.opponents:
            axes.plot(hours, [row[spec] for row in self.rows], marker="o", label=spec)
        axes.axhline(0.6, color="grey", linestyle=":", label="target vs heuristic")
        axes.set(
            xlabel="CPU hours", ylabel="score (win 1, draw 1/2)", ylim=(-0.02, 1.02)
        )
        axes.legend(loc="lower right")
        axes.grid(alpha=0.3)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        pyplot.close(figure)
        write_bytes_atomically(self.png_path, buffer.getvalue(), create_parents=True)
