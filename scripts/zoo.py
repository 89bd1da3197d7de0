"""The baselines zoo: every training route of the docs, trained at one budget on 9×9
(freestyle, five) and measured alike. The table is docs/zoo.md.

    python scripts/zoo.py run sb3 --seed 1        # trains into runs/zoo/sb3-s1
    python scripts/zoo.py evaluate sb3 --seed 1   # its checkpoints vs heuristic, its rating
    python scripts/zoo.py report                  # docs/zoo.csv, zoo-curve.csv, zoo.png

The budget (:data:`BUDGET`): 1,000,000 env steps of the learner or 0.5 CPU hour,
whichever ends first, with 8 checkpoints along it. A :class:`Route` is the command a
user would run (an example of ``examples/`` or ``gomoku train``) at its documented
defaults, with the budget's flags added; each route's process uses one core (torch one
thread), so two runs share the two cores of the machine the table was made on.
AlphaZero's budget is its own clock (``--cpu-hours``): run alone on one thread, that is
about its CPU time; the table gives both.

``evaluate`` draws the learning curve: five of the checkpoints, each played 100 games
against ``heuristic`` (colours alternating, seeded openings) and rated with ``gomoku
rate SPEC --margin 100`` on the newest shipped scale (9x9-v1); the last is rated with
``--margin 50``, the table's rating. The checkpoints are loaded through agent specs, as
the arena, ladder and GUI load them.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # a script run from anywhere imports this checkout

from agents.head_to_head import play_match  # noqa: E402
from agents.run_budget import CHECKPOINTS_FILE, read_checkpoint_rows  # noqa: E402
from agents.specs import make_agent  # noqa: E402
from gomoku_env.config import GameConfig  # noqa: E402
from gomoku_env.files import read_text_file, write_text_atomically  # noqa: E402
from scripts.zoo_report import EVALUATION_FILE, RUN_FILE, markdown, report  # noqa: E402

HEURISTIC_GAMES = 100
RATE_MARGIN = 50
CURVE_MARGIN = 100
"""The curve's ratings (every point but the last, which is the table's) are coarser:
half the games' worth of precision, for four times fewer games."""
CURVE_POINTS = 5
RATING_LINE = re.compile(
    r"^rating ([+-]?\d+) \(95% CI ([+-]?\d+) … ([+-]?\d+), ±(\d+)\) on (.+?), "
    r"(\d+) games",
    re.M,
)


@dataclass(frozen=True)
class Budget:
    """What every route gets: its game, the learner's env steps, the CPU hours
    (AlphaZero: wall hours, run alone on one thread) and the checkpoints kept."""

    board_size: int = 9
    win_length: int = 5
    learner_steps: int = 1_000_000
    hours: float = 0.5
    checkpoints: int = 8

    @property
    def game(self) -> list[str]:
        return [
            "--board-size",
            str(self.board_size),
            "--win-length",
            str(self.win_length),
        ]


BUDGET = Budget()
TINY = Budget(board_size=6, win_length=4, learner_steps=256, hours=0.003, checkpoints=2)
"""The CI's budget: seconds a route (the examples end at their steps, AlphaZero at its
11 seconds)."""

TORCH_POLICY = "python:agents.torch_policy:load_agent,path={path}"


@dataclass(frozen=True)
class Route:
    """One way to train, as the docs give it.

    Attributes:
        name: the route's name here (``runs/zoo/<name>-s<seed>``).
        libraries: the distributions whose versions the table names.
        algorithm, scheme: what learns, and against whom.
        command: the command line for a budget, a seed and a run folder (its first
            word ``python`` or ``gomoku``).
        spec: the agent spec of a saved model, ``{path}`` for its file.
        tiny: flags the CI adds to keep its run to seconds (smaller batches).
        seats: env steps the route counts per learner step (2: the AEC examples
            that count both players' moves).
        change: flags that change a route's defaults (a row that measures what
            they get wrong), added to its command.
        snapshots: its models are ``gomoku train`` snapshots (their counters in
            their metadata), not listed in ``checkpoints.csv``.
        checkpoints: the checkpoints it keeps along the budget, where its defaults
            end the run early (the budget's own, otherwise): the curve needs five.
    """

    name: str
    libraries: tuple[str, ...]
    algorithm: str
    scheme: str
    command: Callable[[Budget, int, Path], list[str]]
    spec: str = TORCH_POLICY
    tiny: tuple[str, ...] = ()
    seats: int = 1
    change: tuple[str, ...] = ()
    snapshots: bool = False
    checkpoints: int | None = None

    def argv(self, budget: Budget, seed: int, folder: Path) -> list[str]:
        """The command with this budget (and the CI's flags at the tiny budget)."""
        tiny = self.tiny if budget == TINY else ()
        if self.checkpoints is not None:
            budget = replace(budget, checkpoints=self.checkpoints)
        return [*self.command(budget, seed, folder), *self.change, *tiny]


def library_example(script: str) -> Callable[[Budget, int, Path], list[str]]:
    """The command of an RL-library example (they share their budget flags)."""

    def command(budget: Budget, seed: int, folder: Path) -> list[str]:
        return [
            "python", f"examples/{script}.py", *budget.game, "--seed", str(seed),
            "--steps", str(2 * budget.learner_steps), "--cpu-hours", str(budget.hours),
            "--checkpoints", str(budget.checkpoints), "--eval-games", "2",
            "--policy-path", str(folder / "policy.pt"),
        ]  # fmt: skip

    return command


def self_play_example(budget: Budget, seed: int, folder: Path) -> list[str]:
    return [
        "python", "examples/aec_selfplay.py", *budget.game, "--seed", str(seed),
        "--games", "100000000", "--steps", str(budget.learner_steps),
        "--cpu-hours", str(budget.hours), "--checkpoints", str(budget.checkpoints),
        "--eval-games", "2", "--out", str(folder),
    ]  # fmt: skip


def sb3_example(budget: Budget, seed: int, folder: Path) -> list[str]:
    return [
        "python", "examples/sb3_maskable_ppo.py", *budget.game, "--seed", str(seed),
        "--steps", str(budget.learner_steps), "--cpu-hours", str(budget.hours),
        "--checkpoints", str(budget.checkpoints),
        "--model-path", str(folder / "model.zip"),
    ]  # fmt: skip


def ppo_recipe(budget: Budget, seed: int, folder: Path) -> list[str]:
    every = max(1, budget.learner_steps // budget.checkpoints)
    return [
        "gomoku", "train", "ppo", *budget.game, "--seed", str(seed),
        "--env-steps", str(budget.learner_steps), "--cpu-hours", str(budget.hours),
        "--checkpoint-every", str(every), "--threads", "1", "--no-progress",
        "--out", str(folder),
    ]  # fmt: skip


def alphazero_recipe(budget: Budget, seed: int, folder: Path) -> list[str]:
    return [
        "gomoku", "train", "alphazero", *budget.game, "--seed", str(seed),
        "--cpu-hours", str(budget.hours), "--threads", "1", "--device", "cpu",
        "--snapshot-every", "1", "--no-progress", "--out", str(folder),
    ]  # fmt: skip


SB3_SPEC = "python:agents.sb3.policy_agent:load_agent,path={path}"
SB3_TINY = ("--num-envs", "4", "--n-steps", "32", "--batch-size", "64",
            "--eval-games", "2")  # fmt: skip
ROUTES = {
    route.name: route
    for route in (
        Route(
            "aec_selfplay", ("torch",), "REINFORCE with a value baseline",
            "self-play, one network in both seats", self_play_example,
            tiny=("--batch-games", "2", "--channels", "8", "--layers", "1"),
        ),
        Route(
            "sb3", ("stable-baselines3", "sb3-contrib"), "MaskablePPO",
            "random, then heuristic, then a pool of its snapshots", sb3_example,
            spec=SB3_SPEC, tiny=SB3_TINY, checkpoints=16,  # its phases end at 426k
        ),
        Route(
            "sb3_warm_start", ("stable-baselines3", "sb3-contrib"), "MaskablePPO",
            "as sb3, after a warm start on 8000 heuristic games", sb3_example,
            spec=SB3_SPEC, tiny=(*SB3_TINY, "--teacher-games", "4"), checkpoints=16,
            change=("--teacher-games", "8000"),
        ),
        Route(
            "sb3_self_play_to_budget", ("stable-baselines3", "sb3-contrib"),
            "MaskablePPO", "as sb3, self-play until the budget ends", sb3_example,
            spec=SB3_SPEC, tiny=SB3_TINY,
            change=("--self-play-steps", "1000000"),
        ),
        Route(
            "tianshou", ("tianshou",), "DQN", "random",
            library_example("tianshou_dqn"), seats=2,
        ),
        Route(
            "torchrl", ("torchrl",), "REINFORCE with a value baseline", "random",
            library_example("torchrl_reinforce"), seats=2,
            tiny=("--steps-per-batch", "64"),
        ),
        Route(
            "rllib", ("ray",), "PPO", "random", library_example("rllib_ppo"),
            seats=2, tiny=("--steps-per-iteration", "128", "--minibatch-size", "64",
                           "--epochs", "1"),
        ),
        Route(
            "ppo", ("torch",), "PPO after a warm start on heuristic games",
            "heuristic with a falling share of random moves", ppo_recipe,
            spec="ppo:weights={path}",
            tiny=("--channels", "4", "--layers", "1", "--teacher-games", "2",
                  "--teacher-epochs", "1", "--num-envs", "4", "--rollout-steps", "4",
                  "--minibatch", "16"),
        ),
        Route(
            "alphazero", ("torch",),
            "AlphaZero (self-play searches 100 or 25 simulations; plays at 200)",
            "self-play (no warm start: distillation is off by default)",
            alphazero_recipe,
            spec="alphazero:weights={path}", snapshots=True,
            tiny=("--channels", "8", "--blocks", "1", "--parallel-games", "2",
                  "--teacher-games", "4",
                  "--simulations", "6", "--fast-simulations", "3",
                  "--evaluation-every", "0"),
        ),
    )
}  # fmt: skip


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


@dataclass(frozen=True)
class Checkpoint:
    """A model kept along a run: its file and the run's counters then."""

    path: Path
    learner_steps: int
    cpu_hours: float
    wall_hours: float


def checkpoints(route: Route, folder: Path) -> list[Checkpoint]:
    """The models a run kept, in order: listed in ``checkpoints.csv`` (beside the
    models), or AlphaZero's snapshots (their counters in their metadata; its env steps
    are its self-play positions)."""
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
    picks = {round(i * (len(kept) - 1) / (count - 1)) for i in range(count)}
    return [kept[i] for i in sorted(picks)]


def versions(route: Route) -> str:
    """The route's libraries with their installed versions."""
    return ", ".join(f"{name} {metadata.version(name)}" for name in route.libraries)


def run(route: Route, budget: Budget, seed: int, folder: Path) -> dict[str, object]:
    """Train (unless ``folder`` holds a finished run: resumable routes carry on
    from their last checkpoint when run again) and record the command and its cost."""
    done = folder / RUN_FILE
    if done.exists():
        return json.loads(read_text_file(done, "a zoo run file"))
    argv = route.argv(budget, seed, folder)
    folder.mkdir(parents=True, exist_ok=True)
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    subprocess.run(
        executable(argv), cwd=ROOT, check=True, env={**os.environ, **ONE_THREAD}
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    record = {
        "route": route.name, "seed": seed, "command": command_line(argv),
        "libraries": versions(route), "wall_seconds": round(time.monotonic() - started, 1),
        "process_cpu_seconds": round(cpu, 1),
    }  # fmt: skip
    write_text_atomically(done, json.dumps(record, indent=1) + "\n")
    return record


def rate_command(
    spec: str, budget: Budget, seed: int, rate_flags: Sequence[str]
) -> list[str]:
    """The ``gomoku rate`` command of a model (``rate_flags``: the scale, games and
    jobs; the table's: ``--margin 50`` on the newest shipped scale, which any
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
) -> dict[str, object]:
    """The learning curve: ``points`` of the run's checkpoints, each scored over
    ``games`` games against heuristic and rated (the last with ``rate_flags``, the
    table's rating; the others with ``curve_flags``). What an earlier evaluation of
    the folder measured for a checkpoint is kept, so an interrupted one resumes."""
    config = GameConfig(budget.board_size, budget.win_length)
    kept = checkpoints(route, folder)
    if not kept:
        raise ValueError(f"{folder}: the run kept no models (run it first)")
    earlier: dict[int, dict[str, object]] = {}
    if (folder / EVALUATION_FILE).exists():
        text = read_text_file(folder / EVALUATION_FILE, "a zoo evaluation")
        earlier = {point["learner_steps"]: point for point in json.loads(text)["curve"]}
    chosen, curve = spread(kept, points), []
    for checkpoint in chosen:
        spec = route.spec.format(path=checkpoint.path)
        point = {**earlier.get(checkpoint.learner_steps, {}),
                 "learner_steps": checkpoint.learner_steps,
                 "cpu_hours": round(checkpoint.cpu_hours, 4),
                 "wall_hours": round(checkpoint.wall_hours, 4)}  # fmt: skip
        if "score_vs_heuristic" not in point:
            agent = make_agent(spec, config, seed=seed)
            heuristic = make_agent("heuristic", config, seed=seed)
            match = play_match(agent, heuristic, config, games, seed=seed)
            point["score_vs_heuristic"] = match.score
        if "rating" not in point:
            flags = rate_flags if checkpoint is chosen[-1] else curve_flags
            point.update(rate(spec, budget, seed, flags))
        curve.append(point)
        print(f"{route.name} s{seed}: {point}", flush=True)
        result = {"curve": curve, "finished": checkpoint is chosen[-1],
                  "model_bytes": kept[-1].path.stat().st_size}  # fmt: skip
        write_text_atomically(
            folder / EVALUATION_FILE, json.dumps(result, indent=1) + "\n"
        )
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("run", "evaluate", "report"))
    parser.add_argument("route", nargs="?", choices=sorted(ROUTES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "zoo")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument(
        "--jobs", type=int, default=2, help="games at once in the rating"
    )
    arguments = parser.parse_args(argv)
    if arguments.step == "report":
        print(markdown(report(arguments.out, arguments.docs, ROUTES)))
        return
    if arguments.route is None:
        parser.error(f"{arguments.step} needs a ROUTE: {', '.join(sorted(ROUTES))}")
    route = ROUTES[arguments.route]
    folder = arguments.out / f"{route.name}-s{arguments.seed}"
    if arguments.step == "run":
        print(json.dumps(run(route, BUDGET, arguments.seed, folder), indent=1))
    else:
        jobs = ["--jobs", str(arguments.jobs)]
        result = evaluate(
            route, BUDGET, arguments.seed, folder,
            ["--margin", str(RATE_MARGIN), *jobs], ["--margin", str(CURVE_MARGIN), *jobs],
        )  # fmt: skip
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
