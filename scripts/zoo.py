"""The baselines zoo: every training route of the docs, trained at the same budgets on
9×9 (freestyle, five) and measured alike. The table is docs/zoo.md.

    python scripts/zoo.py run sb3 --seed 1        # trains into runs/zoo/sb3-s1
    python scripts/zoo.py evaluate sb3 --seed 1   # its checkpoints vs heuristic, its rating
    python scripts/zoo.py run sb3 --seed 1 --cpu-hours 2   # into runs/zoo/sb3-s1-2h
    python scripts/zoo.py report                  # docs/zoo.csv, zoo-curve.csv, zoo.png

The budgets (:data:`BUDGET`, ``--cpu-hours``): 1,000,000 env steps of the learner or
0.5 CPU hour, whichever ends first; or 4,000,000 steps or 2 CPU hours. Each keeps 8
checkpoints a half hour along it (32 at 2 CPU hours). A :class:`Route` is the command a
user would run (an example of ``examples/`` or ``gomoku train``) at its documented
defaults, with the budget's flags added; each route's process uses one core (torch one
thread), so two runs share the two cores of the machine the table was made on.
AlphaZero's budget is CPU time too (``--cpu-hours``); the table gives CPU and wall
hours for every run.

``evaluate`` draws the learning curve: five of the checkpoints, each played 100 games
against ``heuristic`` (colours alternating, seeded openings) and rated with ``gomoku
rate SPEC --margin 100`` on the table's scale (:data:`ZOO_SCALE`: it stays the one
the table was rated on when a newer scale ships); the last is rated with ``--margin
50``, the table's rating. The checkpoints are loaded through agent specs, as
the arena, ladder and GUI load them. The last (the table's model) is copied into
``docs/zoo/`` as ``ROUTE-sSEED[-2h]`` with its suffix, when it is at most 1 MB, and
rated from there: the table's ``gomoku rate`` commands run on a fresh clone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script run from anywhere imports this checkout

from agents.specs.parse import make_agent  # noqa: E402
from agents.training.head_to_head import play_match  # noqa: E402
from gomoku_env.config import GameConfig  # noqa: E402
from gomoku_env.files import (  # noqa: E402
    read_file_bytes,
    write_bytes_atomically,
    write_text_atomically,
)
from scripts.zoo_files import (  # noqa: E402
    EVALUATION_FILE,
    RUN_FILE,
    checkpoints,
    read_evaluation,
    read_run_record,
    spread,
)
from scripts.zoo_report import markdown, report  # noqa: E402
from scripts.zoo_routes import (  # noqa: E402
    BUDGET,
    BUDGET_HOURS,
    ROUTES,
    TINY,  # noqa: F401 - the CI's budget, as `zoo.TINY` to the tests
    Budget,
    Route,
    budget_of,
    run_folder,
)

HEURISTIC_GAMES = 100
RATE_MARGIN = 50
ZOO_SCALE = "9x9-v1"
"""The scale of every rating in the table (the training curriculum uses the newest)."""
CURVE_MARGIN = 100
"""The curve's ratings (every point but the last, which is the table's) are coarser:
half the games' worth of precision, for four times fewer games."""
CURVE_POINTS = 5
SHIPPED_BYTES = 1024 * 1024
"""The largest model the zoo ships in the repository (docs/zoo/): the table's model of
a run, when it is no larger, is copied there and rated from there, so the row's
``gomoku rate`` command runs on a fresh clone."""
RATING_LINE = re.compile(
    r"^rating ([+-]?\d+) \(95% CI ([+-]?\d+) … ([+-]?\d+), ±(\d+)\) on (.+?), "
    r"(\d+) games",
    re.M,
)


ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Every route's environment: one thread a process (two runs share two cores), for
the libraries that take torch's default of a thread per core (RLlib's learner)."""


def command_line(argv: Sequence[str]) -> str:
    """The command as a user types it, with the environment the zoo runs it in."""
    settings = " ".join(f"{name}={value}" for name, value in ONE_THREAD.items())
    return f"{settings} {shown(argv)}"


def shown(argv: Sequence[str]) -> str:
    """``argv`` as one line, paths in this checkout relative to its root (where the
    commands run)."""
    return shlex.join(argv).replace(f"{ROOT}/", "")


PROGRAMS = {
    "python": [sys.executable],
    "gomoku": [sys.executable, "-m", "gomoku_apps.cli.main"],
}


def executable(argv: Sequence[str]) -> list[str]:
    """``argv`` with its program (``python``, ``gomoku``) as this interpreter runs it."""
    return [*PROGRAMS[argv[0]], *argv[1:]]


def versions(route: Route) -> str:
    """The route's libraries with their installed versions."""
    return ", ".join(f"{name} {metadata.version(name)}" for name in route.libraries)


def run(route: Route, budget: Budget, seed: int, folder: Path) -> dict[str, object]:
    """Train (unless ``folder`` holds a finished run: resumable routes carry on
    from their last checkpoint when run again) and record the command and its cost."""
    done = folder / RUN_FILE
    if done.exists():
        return read_run_record(done, ROUTES)
    argv = route.argv(budget, seed, folder)
    folder.mkdir(parents=True, exist_ok=True)
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    subprocess.run(
        executable(argv), cwd=ROOT, check=True, env={**os.environ, **ONE_THREAD}
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    record = {
        "route": route.name, "seed": seed, "budget_hours": budget.hours,
        "command": command_line(argv),
        "libraries": versions(route), "wall_seconds": round(time.monotonic() - started, 1),
        "process_cpu_seconds": round(cpu, 1),
    }  # fmt: skip
    write_text_atomically(done, json.dumps(record, indent=1) + "\n")
    return record


def rate_command(
    spec: str, budget: Budget, seed: int, rate_flags: Sequence[str]
) -> list[str]:
    """The ``gomoku rate`` command of a model (``rate_flags``: the scale, games and
    jobs; the table's: ``--margin 50`` on :data:`ZOO_SCALE`, which any
    ``--jobs`` gives the same rating)."""
    return ["gomoku", "rate", spec, *budget.game, "--seed", str(seed), "--no-progress",
            *rate_flags]  # fmt: skip


def rate(
    spec: str, budget: Budget, seed: int, rate_flags: Sequence[str]
) -> dict[str, object]:
    """Rate ``spec`` with ``gomoku rate``: its rating, interval, games, scale and the
    command that gave them."""
    argv = rate_command(spec, budget, seed, rate_flags)
    output = subprocess.run(
        executable(argv), cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    found = RATING_LINE.search(output)
    if found is None:
        raise ValueError(
            f"no rating line in the output of {shlex.join(argv)}:\n{output}"
        )
    rating, low, high, _, scale, games = found.groups()
    return {"rating": int(rating), "low": int(low), "high": int(high),
            "rated_games": int(games), "scale": scale,
            "rate_command": shown(argv)}  # fmt: skip


def evaluate(
    route: Route,
    budget: Budget,
    seed: int,
    folder: Path,
    rate_flags: Sequence[str],
    curve_flags: Sequence[str],
    points: int = CURVE_POINTS,
    games: int = HEURISTIC_GAMES,
    ship: Path | None = None,
) -> dict[str, object]:
    """The learning curve: ``points`` of the run's checkpoints, each scored over
    ``games`` games against heuristic and rated (the last with ``rate_flags``, the
    table's rating; the others with ``curve_flags``). What an earlier evaluation of
    the folder measured for a checkpoint (on the same file) is kept, so an
    interrupted one resumes.

    With ``ship`` (a folder), the table's model goes there as ``<run folder's
    name><suffix>`` when it is at most :data:`SHIPPED_BYTES` (:func:`shipped`), and
    is rated there; ``model_bytes`` is the size of the file rated last."""
    config = GameConfig(budget.board_size, budget.win_length)
    kept = checkpoints(route, folder)
    if not kept:
        raise ValueError(f"{folder}: the run kept no models (run it first)")
    earlier: dict[int, dict[str, object]] = {}
    if (folder / EVALUATION_FILE).exists():
        found = read_evaluation(folder / EVALUATION_FILE)
        earlier = {point["learner_steps"]: point for point in found["curve"]}
    chosen, curve = spread(kept, points), []
    for checkpoint in chosen:
        path = checkpoint.path
        if checkpoint is chosen[-1] and ship is not None:
            path = shipped(path, ship / f"{folder.name}{path.suffix}")
        spec = route.spec.format(path=path)
        point = {**earlier.get(checkpoint.learner_steps, {}),
                 "learner_steps": checkpoint.learner_steps,
                 "cpu_hours": round(checkpoint.cpu_hours, 4),
                 "wall_hours": round(checkpoint.wall_hours, 4)}  # fmt: skip
        if not point.get("rate_command", "").startswith(
            shown(rate_command(spec, budget, seed, []))
        ):  # not measured yet, or measured on another copy of the model
            agent = make_agent(spec, config, seed=seed)
            heuristic = make_agent("heuristic", config, seed=seed)
            match = play_match(agent, heuristic, config, games, seed=seed)
            point["score_vs_heuristic"] = match.score
            flags = rate_flags if checkpoint is chosen[-1] else curve_flags
            point.update(rate(spec, budget, seed, flags))
        curve.append(point)
        print(f"{route.name} s{seed}: {point}", flush=True)
        result = {"curve": curve, "finished": checkpoint is chosen[-1],
                  "model_bytes": path.stat().st_size}  # fmt: skip
        write_text_atomically(
            folder / EVALUATION_FILE, json.dumps(result, indent=1) + "\n"
        )
    return result


def shipped(model: Path, copy: Path) -> Path:
    """``model`` copied to ``copy`` (atomically; the same run's earlier copy is
    replaced) when it is at most :data:`SHIPPED_BYTES`; else ``model`` itself. A
    MaskablePPO zip (4.5 MB with its optimizer) ships as its policy's weights alone,
    ``copy`` ending in ``.pt`` (:func:`agents.sb3.policy_agent.export_policy`)."""
    if model.suffix == ".zip":
        from agents.sb3.policy_agent import export_policy  # needs the sb3 extra

        copy = export_policy(model, copy.with_suffix(".pt"))
        if copy.stat().st_size <= SHIPPED_BYTES:
            return copy
        copy.unlink()
        return model
    if model.stat().st_size > SHIPPED_BYTES:
        return model
    data = read_file_bytes(model, "a zoo model", SHIPPED_BYTES)
    write_bytes_atomically(copy, data, create_parents=True)
    return copy


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("run", "evaluate", "report"))
    parser.add_argument("route", nargs="?", choices=sorted(ROUTES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cpu-hours",
        type=float,
        default=BUDGET.hours,
        choices=BUDGET_HOURS,
        help="the budget: 0.5 (1M env steps) or 2 (4M env steps) CPU hours",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "zoo")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument(
        "--jobs", type=int, default=2, help="games at once in the rating"
    )
    parser.add_argument(
        "--points",
        type=int,
        default=CURVE_POINTS,
        help=(
            "checkpoints evaluate rates, evenly spaced, the last always among them "
            "(1: the table's model alone; a later evaluation keeps what this measured)"
        ),
    )
    arguments = parser.parse_args(argv)
    if arguments.points < 1:
        parser.error(f"--points must be at least 1, not {arguments.points}")
    try:
        take_step(parser, arguments)
    except ValueError as error:  # a zoo file or a run that is not what it should be
        parser.exit(1, f"zoo.py: error: {error}\n")


def take_step(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> None:
    """Run, evaluate or report, as ``arguments`` ask."""
    if arguments.step == "report":
        print(markdown(report(arguments.out, arguments.docs, ROUTES)))
        return
    if arguments.route is None:
        parser.error(f"{arguments.step} needs a ROUTE: {', '.join(sorted(ROUTES))}")
    route, budget = ROUTES[arguments.route], budget_of(arguments.cpu_hours)
    folder = run_folder(arguments.out, route.name, arguments.seed, budget.hours)
    if arguments.step == "run":
        print(json.dumps(run(route, budget, arguments.seed, folder), indent=1))
    else:
        jobs = ["--jobs", str(arguments.jobs), "--scale", ZOO_SCALE]
        result = evaluate(
            route, budget, arguments.seed, folder,
            ["--margin", str(RATE_MARGIN), *jobs], ["--margin", str(CURVE_MARGIN), *jobs],
            points=arguments.points, ship=arguments.docs / "zoo",
        )  # fmt: skip
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
