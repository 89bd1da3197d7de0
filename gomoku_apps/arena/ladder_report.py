"""The ladder written out: Markdown tables, a CSV file and a PNG plot.

The plot needs matplotlib (the ``plot`` extra);
the Markdown and CSV files need nothing beyond the standard library.
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict
from pathlib import Path

from gomoku_apps.arena.bradley_terry import PairResidual
from gomoku_apps.arena.ladder import Ladder
from gomoku_env.errors import install_hint
from gomoku_env.files import write_atomically, write_text_atomically

CSV_COLUMNS = (
    "rank",
    "agent",
    "rating",
    "margin",
    "low",
    "high",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "ms_per_move",
)


def ladder_rows(ladder: Ladder) -> list[dict[str, object]]:
    """One dict per agent, best first, with the :data:`CSV_COLUMNS` keys."""
    rows = []
    ratings = ladder.ratings
    for rank, name in enumerate(ladder.ranked(), start=1):
        index = ratings.names.index(name)
        rating, margin = ratings.ratings[index], ratings.margins[index]
        record = ladder.tally(name)
        rows.append(
            {
                "rank": rank,
                "agent": name,
                "rating": round(rating, 1),
                "margin": round(margin, 1),
                "low": round(rating - margin, 1),
                "high": round(rating + margin, 1),
                "games": record.games,
                "wins": record.wins,
                "draws": record.draws,
                "losses": record.losses,
                "score": round(record.score, 4),
                "ms_per_move": round(1000 * ladder.thinking_time(name).per_move, 3),
            }
        )
    return rows


def ladder_csv(ladder: Ladder) -> str:
    """The ladder as CSV text with a header row."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(ladder_rows(ladder))
    return buffer.getvalue()


def _crosstable(ladder: Ladder) -> list[str]:
    ranked = ladder.ranked()
    lines = [
        "| agent | " + " | ".join(f"vs {name}" for name in ranked) + " |",
        "|---|" + "---:|" * len(ranked),
    ]
    for name in ranked:
        cells = []
        for opponent in ranked:
            record = ladder.head_to_head(name, opponent) if opponent != name else None
            points = None if record is None else record.wins + record.draws / 2
            cells.append("" if record is None else f"{points:g}/{record.games}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def ladder_markdown(ladder: Ladder) -> str:
    """The ladder as Markdown: the ratings, then a crosstable of points per pairing."""
    percent = round(100 * ladder.ratings.confidence)
    lines = [
        f"Ladder: {ladder.description}; ratings in Elo with {percent}% intervals, "
        f"`{ladder.ratings.anchor}` = 0, draws: {ladder.ratings.draw_model}.",
        "",
        f"| rank | agent | rating | {percent}% interval | games | W/D/L | score "
        "| ms/move |",
        "|---:|---|---:|---|---:|---|---:|---:|",
    ]
    for row in ladder_rows(ladder):
        lines.append(
            f"| {row['rank']} | `{row['agent']}` | {row['rating']:+.0f} "
            f"| {row['low']:+.0f} … {row['high']:+.0f} | {row['games']} "
            f"| {row['wins']}/{row['draws']}/{row['losses']} | {row['score']:.3f} "
            f"| {row['ms_per_move']:.2f} |"
        )
    lines += ["", "Points scored by the row agent against the column agent:", ""]
    return "\n".join(lines + _crosstable(ladder)) + "\n"


def _pyplot():
    """matplotlib's pyplot on the file-only Agg backend, or a clear ImportError."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError(
            f"the ladder's plots need matplotlib: {install_hint('plot')}"
        ) from error
    return plt


def _save_png(figure, path: str | Path) -> None:
    """Write ``figure`` to ``path`` atomically, then free it."""
    plt = _pyplot()
    try:
        write_atomically(
            path, lambda temporary: figure.savefig(temporary, format="png")
        )
    finally:
        plt.close(figure)


def plot_residuals(residuals: list[PairResidual], title: str, path: str | Path) -> None:
    """Draw each pair's observed score at the score its fit predicts, over the interval
    the observed one falls in 95 times in 100 if the ratings hold for that pair (a grey
    bar on the diagonal), as a PNG at ``path``: a red point is a pair outside it."""
    if not residuals:
        raise ValueError("no pair to draw: the fit has no games")
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6, 6))
    axes.vlines(
        [r.predicted for r in residuals],
        [r.low for r in residuals],
        [r.high for r in residuals],
        color="lightgrey",
        linewidth=3,
    )
    for outside, colour in ((False, "tab:blue"), (True, "tab:red")):
        chosen = [r for r in residuals if r.outside == outside]
        axes.scatter(
            [r.predicted for r in chosen],
            [r.observed for r in chosen],
            s=14,
            color=colour,
            zorder=3,
            label=f"{len(chosen)} pairs {'outside' if outside else 'inside'} "
            "their interval",
        )
    low = min(min(r.low, r.observed) for r in residuals)
    edge = max(0.0, low - 0.05)
    axes.plot([edge, 1], [edge, 1], color="grey", linewidth=0.8)
    axes.set_xlim(edge, 1)
    axes.set_ylim(edge, 1)
    axes.set_xlabel("score the fit predicts (the pair's second anchor)")
    axes.set_ylabel("score observed (grey: its 95% interval if the fit holds)")
    axes.set_title(title, fontsize=9)
    axes.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    _save_png(figure, path)


RESIDUAL_COLUMNS = ("first", "second", "games", "distinct", "observed",
                    "predicted", "low", "high", "outside")  # fmt: skip


def write_residuals(residuals: list[PairResidual], prefix: Path, title: str) -> None:
    """Write a fit's pair-by-pair check as ``PREFIX.csv`` (the columns
    :data:`RESIDUAL_COLUMNS`, ``outside`` 0 or 1), then draw it as ``PREFIX.png``
    (:func:`plot_residuals`; without matplotlib the CSV is written and a line says why
    the picture is not)."""
    text = io.StringIO()
    writer = csv.DictWriter(text, RESIDUAL_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(asdict(r) | {"outside": int(r.outside)} for r in residuals)
    write_text_atomically(prefix.with_name(prefix.name + ".csv"), text.getvalue())
    try:
        plot_residuals(residuals, title, prefix.with_name(prefix.name + ".png"))
    except ImportError as error:  # the numbers are written; the picture can wait
        print(f"no {prefix.name}.png: {error}")


def plot_ladder(ladder: Ladder, path: str | Path) -> None:
    """Draw the ratings with their intervals as a PNG at ``path``."""
    plt = _pyplot()
    rows = ladder_rows(ladder)[::-1]
    figure, axes = plt.subplots(figsize=(7, 1 + 0.45 * len(rows)))
    axes.errorbar(
        [row["rating"] for row in rows],
        range(len(rows)),
        xerr=[row["margin"] for row in rows],
        fmt="o",
        capsize=4,
    )
    axes.set_yticks(range(len(rows)), [str(row["agent"]) for row in rows])
    axes.axvline(0, color="grey", linewidth=0.8)
    percent = round(100 * ladder.ratings.confidence)
    axes.set_xlabel(f"rating (Elo, {ladder.ratings.anchor} = 0, {percent}% intervals)")
    axes.set_title(ladder.description, fontsize=9)
    figure.tight_layout()
    _save_png(figure, path)


def write_ladder(ladder: Ladder, prefix: str | Path, plot: bool = True) -> list[Path]:
    """Write ``PREFIX.md``, ``PREFIX.csv`` and (when ``plot``) ``PREFIX.png``."""
    prefix = Path(prefix)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for suffix, text in (
        (".md", ladder_markdown(ladder)),
        (".csv", ladder_csv(ladder)),
    ):
        path = prefix.with_name(prefix.name + suffix)
        write_text_atomically(path, text)
        written.append(path)
    if plot:
        path = prefix.with_name(prefix.name + ".png")
        plot_ladder(ladder, path)
        written.append(path)
    return written
