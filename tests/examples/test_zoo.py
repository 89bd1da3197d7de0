"""Every route of the baselines zoo (``scripts/zoo.py``, docs/zoo.md) trains at a tiny
budget on 6×6 with four in a row, keeps its models where the zoo finds them, and its
last model is scored against heuristic and rated by ``gomoku rate … --games 1`` on a toy
scale: a route that stops working (a library's API moved, an example's flag renamed)
fails here instead of rotting until the next zoo run. Routes whose library is not
installed are skipped (the ``sb3``, ``tianshou``, ``torchrl`` and ``rllib`` extras)."""

from __future__ import annotations

import json
import re
import shlex
from importlib import metadata
from pathlib import Path

import pytest

from tests.scripts_as_modules import load_script

TOY_SCALE = "rank,agent,rating,margin\n1,random,0.0,0.0\n2,heuristic,600.0,50.0\n"


zoo = load_script("scripts/zoo.py")
zoo_files = load_script("scripts/zoo_files.py")


TRAINED_HERE = sorted(name for name in zoo.ROUTES if not name.endswith("_32000"))
"""The routes trained at the tiny budget: all but the ``*_warm_start_32000`` ones,
which are their ``*_warm_start`` route with another teacher-game count (and, for
the ``*_anchored_32000`` ones, the anchor's flags, tested with the examples), or (SB3's)
``sb3_warm_start`` on another network, whose example runs in the example tests
(checked by :func:`test_the_warm_start_routes_train_the_recipes_network`)."""


@pytest.mark.slow
@pytest.mark.parametrize("name", TRAINED_HERE)
def test_every_zoo_route_trains_and_its_model_is_rated(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    route = zoo.ROUTES[name]
    for library in route.libraries:
        try:
            metadata.version(library)
        except metadata.PackageNotFoundError:
            pytest.skip(f"{library} is not installed")
    folder = tmp_path / name
    record = zoo.run(route, zoo.TINY, 1, folder)
    command = record["command"].removeprefix("OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 ")
    assert command.startswith(("python examples/", "gomoku train "))
    assert record["wall_seconds"] > 0 and route.libraries[0] in record["libraries"]
    kept = zoo.checkpoints(route, folder)
    assert kept and all(checkpoint.path.is_file() for checkpoint in kept)
    assert kept[-1].learner_steps > 0 and kept[-1].cpu_hours > 0
    # A second run of the same folder is the finished run's record, not a new run.
    assert zoo.run(route, zoo.TINY, 1, folder) == record
    scale = tmp_path / "toy.csv"
    scale.write_text(TOY_SCALE)
    flags = ["--reference", str(scale), "--games", "1"]
    result = zoo.evaluate(route, zoo.TINY, 1, folder, flags, flags, points=2, games=2)
    curve = result["curve"]
    assert result["finished"] and len(curve) == min(2, len(kept))
    assert curve[-1]["learner_steps"] == kept[-1].learner_steps
    for point in curve:
        assert 0 <= point["score_vs_heuristic"] <= 1
        assert point["rated_games"] == 2  # one game against each anchor
        assert point["low"] < point["rating"] < point["high"]
    spec = route.spec.format(path=kept[-1].path)
    assert curve[-1]["rate_command"].startswith(f"gomoku rate {shlex.quote(spec)} ")
    # Shipped, the table's model is rated from its copy, to the same rating.
    ship = tmp_path / "docs" / "zoo"
    shipped = zoo.evaluate(route, zoo.TINY, 1, folder, flags, flags, 2, 2, ship=ship)
    model = kept[-1].path
    copy = ship / f"{name}{model.suffix}"
    if model.suffix == ".zip":  # an SB3 zip ships as its policy's weights alone
        copy = copy.with_suffix(".pt")
        assert copy.stat().st_size < model.stat().st_size / 4
    elif model.stat().st_size <= zoo.SHIPPED_BYTES:
        assert copy.read_bytes() == model.read_bytes()
    if copy.exists():
        assert shipped["model_bytes"] == copy.stat().st_size
        last = shipped["curve"][-1]
        assert shlex.quote(route.spec.format(path=copy)) in last["rate_command"]
        if model.suffix != ".zip":  # the same bytes: the same games
            assert last["rating"] == curve[-1]["rating"]
        assert shipped["curve"][:-1] == curve[:-1]
    else:
        assert shipped == result
    # Evaluating again keeps what was measured: no game is played twice.
    monkeypatch.setattr(zoo, "play_match", refuse_to_play)
    monkeypatch.setattr(zoo, "rate", refuse_to_play)
    assert (
        zoo.evaluate(route, zoo.TINY, 1, folder, flags, flags, 2, 2, ship=ship)
        == shipped
    )


def refuse_to_play(*arguments: object) -> None:
    raise AssertionError("a measured checkpoint was played again")


def test_the_report_tables_every_evaluated_run_and_draws_their_curves(
    tmp_path: Path,
) -> None:
    pytest.importorskip("matplotlib", reason="needs the plot extra")
    out, docs = tmp_path / "runs", tmp_path / "docs"
    docs.mkdir()
    runs = (("sb3", 1, 420, None), ("ppo", 2, 610, None), ("rllib", 1, None, None),
            ("sb3", 1, 500, 2.0))  # fmt: skip
    for route, seed, rating, hours in runs:
        folder = zoo.run_folder(out, route, seed, hours or 0.5)
        folder.mkdir(parents=True)
        trained = {"route": route, "seed": seed, "command": f"train {route}",
                   "libraries": "torch 2", "wall_seconds": 60.0}  # fmt: skip
        if hours is not None:  # a record from before budgets has none: 0.5
            trained["budget_hours"] = hours
        (folder / "zoo-run.json").write_text(json.dumps(trained))
        if rating is None:
            continue  # trained, not evaluated yet: no row
        curve = [
            {"learner_steps": steps, "cpu_hours": steps / 1e6, "wall_hours": 0.1,
             "score_vs_heuristic": steps / 2e6, "rating": point_rating,
             "low": point_rating - 40, "high": point_rating + 45, "rated_games": 700,
             "scale": "9x9-v1", "rate_command": f"gomoku rate {route}"}
            for steps, point_rating in ((0, 0), (500_000, rating // 2),
                                        (1_000_000, rating))
        ]  # fmt: skip
        evaluated = {"curve": curve, "finished": True, "model_bytes": 1000}
        (folder / "zoo-evaluation.json").write_text(json.dumps(evaluated))
    # An evaluation that stopped half way has no row yet (its next run resumes it).
    unfinished = out / "tianshou-s1"
    unfinished.mkdir()
    (unfinished / "zoo-run.json").write_text(
        json.dumps({**trained, "route": "tianshou"})
    )
    partial = {"curve": curve[:1], "finished": False, "model_bytes": 1000}
    (unfinished / "zoo-evaluation.json").write_text(json.dumps(partial))
    page = "# Zoo\n\n<!-- table: python scripts/zoo.py report -->\nold\n<!-- end of table -->\n"
    (docs / "zoo.md").write_text(page)
    rows = zoo.report(out, docs, zoo.ROUTES)
    assert [
        (row["route"], row["budget_hours"], row["seed"], row["rating"]) for row in rows
    ] == [("ppo", 0.5, 2, 610), ("sb3", 0.5, 1, 420), ("sb3", 2.0, 1, 500)]
    assert (out / "sb3-s1-2h").is_dir()
    table = (docs / "zoo.csv").read_text().splitlines()
    assert table[0].startswith("route,budget_hours,seed,libraries") and len(table) == 4
    curve_rows = (docs / "zoo-curve.csv").read_text().splitlines()
    assert len(curve_rows) == 1 + 3 * 3
    assert "sb3,0.5,1,1000000,1.0,0.1,0.5,420,380,465,700," in "\n".join(curve_rows)
    assert curve_rows[-1].startswith("sb3,2.0,1,1000000,1.0,0.1,0.5,500,460,545,700,")
    assert (docs / "zoo.png").read_bytes()[:4] == b"\x89PNG"
    text = zoo.markdown(rows)
    assert "| ppo | 0.5 | torch 2 | PPO after a warm start" in text
    assert "| sb3 | 2 | torch 2 |" in text
    assert "| 1,000,000 | 1.00 | 0.10 | +610 (+570 … +655) | 0.50 | 1 kB | 2 |" in text
    assert (
        "**ppo, 0.5 CPU h, seed 2**:\n\n```bash\ntrain ppo\ngomoku rate ppo\n```"
        in text
    )
    # The page's table is the report's, between its markers.
    assert (docs / "zoo.md").read_text() == page.replace("\nold\n", f"\n\n{text}\n")


def test_the_report_keeps_the_published_rows_of_runs_made_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run under ``--out`` replaces its published row and curve; the runs made
    on another machine keep theirs, numbers and commands as published."""
    pytest.importorskip("matplotlib", reason="needs the plot extra")
    docs, first = tmp_path / "docs", tmp_path / "first"
    docs.mkdir()
    finished_run(first, "sb3")
    finished_run(first, "rllib")
    zoo.report(first, docs, zoo.ROUTES)
    again = finished_run(tmp_path / "again", "sb3")
    evaluated = json.loads((again / "zoo-evaluation.json").read_text())
    evaluated["curve"][0].update(rating=300, low=250, high=350)
    (again / "zoo-evaluation.json").write_text(json.dumps(evaluated))
    rows = zoo.report(tmp_path / "again", docs, zoo.ROUTES)
    assert [(row["route"], row["rating"], row["low"]) for row in rows] == [
        ("sb3", 300, 250),
        ("rllib", 100, 50),
    ]
    assert rows[1]["command"] == "train rllib" and rows[1]["budget_hours"] == 0.5
    curve = (docs / "zoo-curve.csv").read_text().splitlines()
    assert [line.split(",")[:8] for line in curve[1:]] == [
        ["rllib", "0.5", "1", "10", "0.1", "0.1", "0.5", "100"],
        ["sb3", "0.5", "1", "10", "0.1", "0.1", "0.5", "300"],
    ]
    # A published CSV that is not the report's stops the report in one line naming
    # it, and leaves the published files as they are.
    for text in ("route,rating\nsb3,x\n",
                 "route,budget_hours,seed,learner_steps,cpu_hours,wall_hours,"
                 "score_vs_heuristic,rating,low,high,rated_games,rate_command\n"
                 "sb3,half,1,0,0,0,0,0,0,0,0,x\n"):  # fmt: skip
        (docs / "zoo-curve.csv").write_text(text)
        before = (docs / "zoo.csv").read_bytes()
        with pytest.raises(SystemExit) as stopped:
            zoo.main(["report", "--out", str(tmp_path / "again"), "--docs", str(docs)])
        assert stopped.value.code == 1
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and "zoo-curve.csv: " in error, error
        assert ("columns" in error) if "rating\nsb3" in text else ("half" in error)
        assert (docs / "zoo.csv").read_bytes() == before
        assert (docs / "zoo-curve.csv").read_text() == text


def finished_run(out: Path, route: str = "sb3", seed: int = 1) -> Path:
    """A run folder as ``zoo.py evaluate`` leaves it, one curve point."""
    folder = out / f"{route}-s{seed}"
    folder.mkdir(parents=True)
    trained = {"route": route, "seed": seed, "command": f"train {route}",
               "libraries": "torch 2", "wall_seconds": 60.0}  # fmt: skip
    (folder / "zoo-run.json").write_text(json.dumps(trained))
    point = {"learner_steps": 10, "cpu_hours": 0.1, "wall_hours": 0.1,
             "score_vs_heuristic": 0.5, "rating": 100, "low": 50, "high": 150,
             "rated_games": 700, "scale": "9x9-v1", "rate_command": "gomoku rate x"}  # fmt: skip
    evaluated = {"curve": [point], "finished": True, "model_bytes": 1000}
    (folder / "zoo-evaluation.json").write_text(json.dumps(evaluated))
    return folder


def published(docs: Path) -> dict[str, bytes]:
    docs.mkdir(exist_ok=True)
    files = {"zoo.csv": b"route\nold\n", "zoo-curve.csv": b"route\nold\n",
             "zoo.png": b"\x89PNG old", "zoo.md": b"# Zoo\n"}  # fmt: skip
    for name, data in files.items():
        (docs / name).write_bytes(data)
    return files


def report_fails(
    out: Path, docs: Path, capsys: pytest.CaptureFixture[str], *matches: str
) -> None:
    """``zoo.py report`` exits 1 with one line holding ``matches``; docs untouched."""
    files = published(docs)
    with pytest.raises(SystemExit) as stopped:
        zoo.main(["report", "--out", str(out), "--docs", str(docs)])
    assert stopped.value.code == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("zoo.py: error: "), error
    assert all(match in error for match in matches), error
    assert {name: (docs / name).read_bytes() for name in files} == files


@pytest.mark.parametrize("out_name", ["runs", "mistyped"])
def test_a_report_with_no_finished_run_keeps_the_published_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out_name: str
) -> None:
    out = tmp_path / "runs"
    out.mkdir()
    unfinished = finished_run(out)
    evaluated = json.loads((unfinished / "zoo-evaluation.json").read_text())
    evaluated["finished"] = False
    (unfinished / "zoo-evaluation.json").write_text(json.dumps(evaluated))
    report_fails(tmp_path / out_name, tmp_path / "docs", capsys, "no finished")


@pytest.mark.parametrize(
    ("file", "text", "why"),
    [
        ("zoo-run.json", '{"route": "sb3", "se', "not JSON"),
        ("zoo-run.json", "[1, 2]", "a list"),
        ("zoo-run.json", "[" * 10**5 + "]" * 10**5, "nested too deep"),
        ("zoo-run.json", '{"route": "sb3", "seed": 1, "command": "x"}', "'libraries'"),
        (
            "zoo-run.json",
            '{"route": "nope", "seed": 1, "command": "x", "libraries": "y"}',
            "unknown route 'nope'",
        ),
        (
            "zoo-run.json",
            '{"route": "sb3", "seed": "1", "command": "x", "libraries": "y"}',
            "'seed' is '1', not int",
        ),
        ("zoo-evaluation.json", '{"curve": [], "finished": tr', "not JSON"),
        ("zoo-evaluation.json", '"text"', "a str"),
        ("zoo-evaluation.json", '{"curve": [], "finished": true}', "'model_bytes'"),
        (
            "zoo-evaluation.json",
            '{"curve": [{}], "finished": true, "model_bytes": 1}',
            "curve point 1: no 'learner_steps'",
        ),
        (
            "zoo-evaluation.json",
            '{"curve": [], "finished": true, "model_bytes": 1}',
            "no curve",
        ),
    ],
)
def test_a_malformed_zoo_file_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], file: str, text: str, why: str
) -> None:
    folder = finished_run(tmp_path / "runs")
    (folder / file).write_text(text)
    report_fails(
        tmp_path / "runs", tmp_path / "docs", capsys, f"{folder / file}: ", why
    )


def test_a_malformed_run_file_stops_run_and_evaluate_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "runs" / "sb3-s1"
    folder.mkdir(parents=True)
    (folder / "zoo-run.json").write_text("[]")
    with pytest.raises(SystemExit) as stopped:
        zoo.main(["run", "sb3", "--out", str(tmp_path / "runs")])
    assert stopped.value.code == 1
    assert capsys.readouterr().err.startswith(f"zoo.py: error: {folder}")


def test_the_budgets_scale_the_steps_and_refuse_others() -> None:
    two = zoo.budget_of(2.0)
    assert (two.hours, two.learner_steps, two.checkpoints) == (2.0, 4_000_000, 32)
    assert zoo.budget_of(0.5) == zoo.BUDGET
    assert zoo.run_folder(Path("runs"), "sb3", 1, 0.5) == Path("runs/sb3-s1")
    assert zoo.run_folder(Path("runs"), "sb3", 1, 2.0) == Path("runs/sb3-s1-2h")
    assert "--cpu-hours 2" in shlex.join(
        zoo.ROUTES["alphazero"].argv(two, 1, Path("x"))
    )
    # Checkpoints as many steps apart at both budgets, a route's own count too.
    for route, half, whole in (("rllib", 8, 32), ("sb3", 16, 64)):
        for budget, count in ((zoo.BUDGET, half), (two, whole)):
            argv = zoo.ROUTES[route].argv(budget, 1, Path("x"))
            assert argv[argv.index("--checkpoints") + 1] == str(count)
    with pytest.raises(ValueError, match=r"not 1\.0"):
        zoo.budget_of(1.0)
    with pytest.raises(SystemExit):
        zoo.main(["run", "sb3", "--cpu-hours", "3"])


@pytest.mark.parametrize(
    ("suffix", "games"), [("warm_start", 8000), ("warm_start_32000", 32000)]
)
def test_the_warm_start_routes_train_the_recipes_network(
    suffix: str, games: int
) -> None:
    """Every ``*_warm_start`` route warm-starts the PPO recipe's network on the
    recipe's teacher games, every ``*_warm_start_32000`` one on four times as many;
    RLlib's and TorchRL's then train with the recipe's gentler settings, Tianshou's
    with its own."""
    for name in ("tianshou", "torchrl", "rllib"):
        cold = zoo.ROUTES[name].argv(zoo.BUDGET, 1, Path("x"))
        route = zoo.ROUTES[f"{name}_{suffix}"]
        warm = route.argv(zoo.BUDGET, 1, Path("x"))
        assert warm[: len(cold)] == cold
        added = shlex.join(warm[len(cold) :])
        assert added.startswith(
            f"--teacher-games {games} --channels 48 --layers 5 --border"
        )
        assert ("--learning-rate 0.0003" in added) == (name != "tianshou")
        assert f"after a warm start on {games} heuristic games" in route.scheme
    torchrl = shlex.join(
        zoo.ROUTES["torchrl_warm_start"].argv(zoo.BUDGET, 1, Path("x"))
    )
    assert "--updates-per-batch 3 --steps-per-batch 4096 --gamma 0.99" in torchrl
    sb3 = zoo.ROUTES["sb3_warm_start"].argv(zoo.BUDGET, 1, Path("x"))
    sb3_long = zoo.ROUTES["sb3_warm_start_32000"].argv(zoo.BUDGET, 1, Path("x"))
    assert (
        sb3_long[: sb3.index("--teacher-games")] == sb3[: sb3.index("--teacher-games")]
    )
    assert shlex.join(sb3_long[sb3.index("--teacher-games") :]) == (
        "--teacher-games 32000 --cnn-channels 48 --cnn-layers 5 --cnn-border "
        "--cnn-cell-features 4 --n-epochs 3 --batch-size 1024 --n-steps 256"
    )


def test_the_anchored_routes_are_the_long_warm_start_held_near_it() -> None:
    """``NAME_anchored_32000`` is ``NAME_warm_start_32000``'s command and the anchor's
    weight (Tianshou's reading the network as soft Q-values), at every budget."""
    for name, weight, more in (
        ("torchrl", "0.1", []),
        ("tianshou", "0.3", ["--soft-q-temperature", "0.1"]),
    ):
        for hours in zoo.BUDGET_HOURS:
            budget = zoo.budget_of(hours)
            warm = zoo.ROUTES[f"{name}_warm_start_32000"].argv(budget, 1, Path("x"))
            anchored = zoo.ROUTES[f"{name}_anchored_32000"].argv(budget, 1, Path("x"))
            assert anchored == [*warm, *more, "--anchor-weight", weight]
        scheme = zoo.ROUTES[f"{name}_anchored_32000"].scheme
        assert scheme.endswith(f"held near it (KL weight {weight})")


def test_points_choose_the_checkpoints_evaluate_rates_the_last_among_them() -> None:
    """``--points 1`` rates the table's model alone (the run's last); more spread
    evenly from the first; zero or fewer is refused naming the value."""
    kept = [zoo_files.Checkpoint(Path(f"m{i}.pt"), i, i / 10, i / 10) for i in range(7)]
    assert [c.learner_steps for c in zoo_files.spread(kept, 1)] == [6]
    assert [c.learner_steps for c in zoo_files.spread(kept, 2)] == [0, 6]
    assert [c.learner_steps for c in zoo_files.spread(kept, 4)] == [0, 2, 4, 6]
    assert zoo_files.spread(kept, 9) == kept
    with pytest.raises(SystemExit):
        zoo.main(["evaluate", "sb3", "--points", "0"])


def test_every_published_row_ships_its_model_and_it_plays() -> None:
    """Each row of docs/zoo.csv names its model in its ``gomoku rate`` command: the file
    is in the repository, at most 1 MB and the size the row says, and the spec builds
    an agent that answers with a legal move, so the command runs on a fresh clone."""
    import csv

    import gomoku_env
    from agents.specs.parse import make_agent
    from gomoku_env.config import GameConfig

    with open(zoo.ROOT / "docs" / "zoo.csv", newline="") as table:
        rows = list(csv.DictReader(table))
    assert len(rows) >= 20
    for row in rows:
        spec = shlex.split(row["rate_command"])[2]
        path = zoo.ROOT / re.search(r"(?:path|weights)=([^,]+)", spec).group(1)
        assert path.is_file(), (row["route"], path)
        assert path.stat().st_size == int(row["model_bytes"]) <= 2**20, row["route"]
        env = gomoku_env.env(board_size=9)
        env.reset(seed=1)
        env.step(40)
        observation = env.last()[0]
        move = make_agent(spec, GameConfig(9), seed=1).act(observation)
        assert observation["action_mask"][move] == 1, (row["route"], move)
