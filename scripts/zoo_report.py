"""The zoo's table, its curve and its picture, from the runs that ``scripts/zoo.py``
trained and evaluated: ``docs/zoo.csv`` (one row per run: its route, libraries,
budget spent, rating and score against heuristic, and the commands that made them),
``docs/zoo-curve.csv`` (the rating and score of each model on the curve) and
``docs/zoo.png`` (the ratings over env steps), and the table into ``docs/zoo.md``.

The table accumulates: a run found under ``--out`` replaces its row (route, budget,
seed) and its curve, and the published rows of runs made elsewhere (another machine,
an earlier checkout whose ``runs/`` is gone) stay as they are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from gomoku_env.files import (
    read_text_file,
    write_bytes_atomically,
    write_text_atomically,
)
from scripts.zoo_files import (
    EVALUATION_FILE,
    RUN_FILE,
    ZooFileError,
    read_evaluation,
    read_run_record,
)

RUN_COLUMNS = (
    "route", "budget_hours", "seed", "libraries", "algorithm", "scheme",
    "learner_steps", "cpu_hours", "wall_hours", "rating", "low", "high",
    "rated_games", "scale", "score_vs_heuristic", "model_bytes", "command",
    "rate_command",
)  # fmt: skip
CURVE_COLUMNS = ("route", "budget_hours", "seed", "learner_steps", "cpu_hours", "wall_hours",
                 "score_vs_heuristic", "rating", "low", "high", "rated_games",
                 "rate_command")  # fmt: skip
NUMBERS = {"budget_hours": float, "seed": int, "learner_steps": int,
           "cpu_hours": float, "wall_hours": float, "rating": int, "low": int,
           "high": int, "rated_games": int, "score_vs_heuristic": float,
           "model_bytes": int}  # fmt: skip
"""The columns of the published CSVs that hold numbers, and their types."""


def run_key(row: Mapping[str, object]) -> tuple[object, ...]:
    """Which run a table row or curve point belongs to: route, budget and seed."""
    return row["route"], row["budget_hours"], row["seed"]


def published(path: Path, columns: Sequence[str]) -> list[dict[str, object]]:
    """The rows of a published CSV (none when there is no file), numbers typed.

    Raises:
        ZooFileError: a file that is not the report's (other columns, a number
            that is not one), naming it.
    """
    if not path.exists():
        return []
    reader = csv.DictReader(
        io.StringIO(read_text_file(path, "a zoo CSV", ZooFileError))
    )
    if tuple(reader.fieldnames or ()) != tuple(columns):
        raise ZooFileError(f"{path}: columns {reader.fieldnames}, not {list(columns)}")
    try:
        return [{name: NUMBERS.get(name, str)(row[name]) for name in columns}
                for row in reader]  # fmt: skip
    except (TypeError, ValueError) as error:
        raise ZooFileError(f"{path}: {error}") from None


def report(
    out: Path, docs: Path, routes: Mapping[str, object]
) -> list[dict[str, object]]:
    """The table's rows (the route with the highest rating first, its seeds together)
    from every run under ``out`` whose evaluation finished, and the published rows of
    runs not there: written to ``docs/zoo.csv``, their curves to
    ``docs/zoo-curve.csv`` and ``docs/zoo.png``.

    Raises:
        ZooFileError: a malformed run, evaluation or published file, or no finished
            run under ``out`` (the published results are kept as they are).
    """
    rows, points = [], []
    for folder in sorted(out.glob("*-s*")):
        if not (folder / EVALUATION_FILE).exists():
            continue
        rated = read_evaluation(folder / EVALUATION_FILE)
        if not rated["finished"]:
            continue
        trained = read_run_record(folder / RUN_FILE, routes)
        route, last = routes[trained["route"]], rated["curve"][-1]
        rows.append({
            "route": route.name, "budget_hours": trained["budget_hours"],
            "seed": trained["seed"], "libraries": trained["libraries"],
            "algorithm": route.algorithm, "scheme": route.scheme,
            "learner_steps": last["learner_steps"],
            "cpu_hours": last["cpu_hours"], "wall_hours": last["wall_hours"],
            "rating": last["rating"], "low": last["low"], "high": last["high"],
            "rated_games": last["rated_games"], "scale": last["scale"],
            "score_vs_heuristic": last["score_vs_heuristic"],
            "model_bytes": rated["model_bytes"], "command": trained["command"],
            "rate_command": last["rate_command"],
        })  # fmt: skip
        points += [{"route": route.name, "budget_hours": trained["budget_hours"],
                    "seed": trained["seed"],
                    **{name: point[name] for name in CURVE_COLUMNS[3:]}}
                   for point in rated["curve"]]  # fmt: skip
    if not rows:
        raise ZooFileError(
            f"no finished evaluation under {out}: nothing to report, and {docs} "
            "keeps the results it has (run 'zoo.py evaluate ROUTE' first)"
        )
    found = {run_key(row) for row in rows}
    rows += [row for row in published(docs / "zoo.csv", RUN_COLUMNS)
             if run_key(row) not in found]  # fmt: skip
    points += [point for point in published(docs / "zoo-curve.csv", CURVE_COLUMNS)
               if run_key(point) not in found]  # fmt: skip
    points.sort(key=lambda point: (*run_key(point), point["learner_steps"]))
    best = {row["route"]: max(r["rating"] for r in rows if r["route"] == row["route"])
            for row in rows}  # fmt: skip
    rows.sort(
        key=lambda r: (-best[r["route"]], r["route"], r["budget_hours"], r["seed"])
    )
    write_csv(docs / "zoo.csv", rows, RUN_COLUMNS)
    write_csv(docs / "zoo-curve.csv", points, CURVE_COLUMNS)
    plot(points, docs / "zoo.png")
    page = docs / "zoo.md"
    if page.exists():
        text = read_text_file(page, "the zoo's page")
        write_text_atomically(page, with_table(text, markdown(rows)))
    return rows


TABLE_START, TABLE_END = (
    "<!-- table: python scripts/zoo.py report -->",
    "<!-- end of table -->",
)
"""The markers around the table in docs/zoo.md, which the report rewrites."""


def with_table(page: str, table: str) -> str:
    """``page`` with ``table`` between its table markers."""
    start, end = page.find(TABLE_START), page.find(TABLE_END)
    if start < 0 or end < start:
        raise ValueError(f"the page has no {TABLE_START} … {TABLE_END} markers")
    return f"{page[: start + len(TABLE_START)]}\n\n{table}\n{page[end:]}"


def write_csv(
    path: Path, rows: list[dict[str, object]], columns: Sequence[str]
) -> None:
    text = io.StringIO()
    writer = csv.DictWriter(text, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_text_atomically(path, text.getvalue())


def plot(points: list[dict[str, object]], path: Path) -> None:
    """Rating (with its 95% interval) over the learner's env steps (log scale:
    AlphaZero's self-play positions are tens of thousands, the others' steps up to a
    million) and over CPU hours (the budget all routes share): one colour per route,
    a line style per budget (solid the half hour, dashed the longer), a marker per
    seed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    routes = sorted({point["route"] for point in points})
    runs = sorted({(p["route"], p["budget_hours"], p["seed"]) for p in points})
    budgets = sorted({hours for _, hours, _ in runs})
    for route, hours, seed in runs:
        mine = [p for p in points
                if (p["route"], p["budget_hours"], p["seed"]) == (route, hours, seed)]  # fmt: skip
        ratings = [p["rating"] for p in mine]
        interval = ([p["rating"] - p["low"] for p in mine],
                    [p["high"] - p["rating"] for p in mine])  # fmt: skip
        style = {"color": f"C{routes.index(route) % 10}", "capsize": 2,
                 "marker": "os^"[(seed - 1) % 3], "markersize": 4,
                 "linestyle": ("-", "--", ":")[budgets.index(hours) % 3]}  # fmt: skip
        for axis, x in zip(axes, ("learner_steps", "cpu_hours"), strict=True):
            axis.errorbar([p[x] for p in mine], ratings, interval, **style,
                          label=f"{route} ({hours:g} CPU h, seed {seed})")  # fmt: skip
    axes[0].set_xscale("log")
    axes[0].set_xlabel("env steps of the learner (AlphaZero: self-play positions)")
    axes[1].set_xlabel("CPU hours")
    axes[0].set_ylabel("rating on 9x9-v1 (95% interval)")
    for axis in axes:
        axis.grid(alpha=0.3)
    axes[1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.02, 0.5))
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    plt.close(figure)
    write_bytes_atomically(path, buffer.getvalue())


def markdown(rows: list[dict[str, object]]) -> str:
    """The table of docs/zoo.md, then each row's commands (training, rating)."""
    lines = ["| route | budget (CPU h) | libraries | algorithm | opponent | env steps "
             "| CPU h | wall h | 9x9-v1 rating (95% CI) | vs heuristic | model | seed |",
             "|---|--:|---|---|---|--:|--:|--:|--:|--:|--:|--:|"]  # fmt: skip
    for row in rows:
        lines.append(
            f"| {row['route']} | {row['budget_hours']:g} | {row['libraries']} "
            f"| {row['algorithm']} "
            f"| {row['scheme']} | {row['learner_steps']:,} | {row['cpu_hours']:.2f} "
            f"| {row['wall_hours']:.2f} | {row['rating']:+d} ({row['low']:+d} … "
            f"{row['high']:+d}) | {row['score_vs_heuristic']:.2f} "
            f"| {size(row['model_bytes'])} | {row['seed']} |"
        )
    lines.append("")
    for row in rows:
        lines += [f"**{row['route']}, {row['budget_hours']:g} CPU h, seed "
                  f"{row['seed']}**:", "", "```bash",
                  row["command"], row["rate_command"], "```", ""]  # fmt: skip
    return "\n".join(lines).rstrip() + "\n"


def size(count: int) -> str:
    """A file's size as the table shows it (kB below a megabyte, else MB)."""
    return f"{count / 1e6:.1f} MB" if count >= 1e6 else f"{count / 1e3:.0f} kB"
