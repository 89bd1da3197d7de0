"""The library examples' shared command line and final evaluation."""

from __future__ import annotations

import csv
import dataclasses
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import torch

import gomoku_env
from agents.specs.flags import parse_dataclass
from agents.training.example_runs import (
    ExampleArgs,
    evaluate_policy_file,
    new_network,
    run_budget,
)
from agents.training.run_budget import RunBudget, read_checkpoint_rows
from agents.training.teacher_games import TeacherGamesConfig, teacher_games
from agents.training.torch_policy import (
    PolicyNetwork,
    PolicyShape,
    load_policy,
    save_policy,
)
from gomoku_env.action_counter import IllegalActionCounter
from gomoku_env.fields import option


@dataclass(frozen=True)
class Args(ExampleArgs):
    learning_rate: float = option(1e-3, help="a field of one example")


def test_options_cover_shared_and_own_fields(capsys: pytest.CaptureFixture) -> None:
    argv = ["--board-size", "7", "--learning-rate", "0.5", "--policy-path", "p"]
    args = parse_dataclass(Args, "test", argv)
    assert (args.board_size, args.learning_rate, args.policy_path) == (7, 0.5, "p")
    assert args.config == gomoku_env.GameConfig(7, 5)
    with pytest.raises(SystemExit):
        parse_dataclass(Args, "test", ["--help"])
    # Help of the subclass's own field and of an inherited one, from their metadata.
    assert "a field of one example" in capsys.readouterr().out


def test_evaluation_plays_the_saved_file_and_sums_the_counters(tmp_path: Path) -> None:
    config = gomoku_env.GameConfig(5, 4)
    path = str(save_policy(tmp_path / "p.pt", PolicyNetwork(), config))
    counters = [IllegalActionCounter(gomoku_env.env(board_size=5)) for _ in range(2)]
    counters[0].actions, counters[1].actions, counters[1].illegal_actions = 3, 4, 1
    result = evaluate_policy_file(path, config, games=4, seed=0, counters=counters)
    assert result.wins + result.draws + result.losses == 4
    assert 0 <= result.score_vs_random <= 1
    assert (result.env_actions, result.illegal_actions) == (7, 1)
    assert result.policy_path == path


def test_a_budget_saves_its_checkpoints_evenly_and_the_last_once(
    tmp_path: Path,
) -> None:
    args = Args(steps=1000, checkpoints=4, policy_path=str(tmp_path / "run" / "p.pt"))
    budget = run_budget(args, trainer="test")
    network = PolicyNetwork()
    spent = [budget.spent(steps, network) for steps in range(100, 1000, 100)]
    assert spent == [False] * 9
    budget.finish(network)  # 900 of 1000: the batches ended short of the budget
    budget.finish(network)  # already saved: not again
    rows = list(csv.DictReader((tmp_path / "run" / "checkpoints.csv").open()))
    assert [int(row["steps"]) for row in rows] == [300, 500, 800, 900]
    assert rows[0]["path"] == "p-000000300.pt"
    for row in rows:
        saved = load_policy(tmp_path / "run" / row["path"], args.config)
        assert saved.shape == network.shape
        assert float(row["cpu_seconds"]) >= 0
    assert budget.spent(1000, network)


def test_a_cpu_budget_ends_the_run_before_its_steps(tmp_path: Path) -> None:
    args = Args(
        steps=10**9, cpu_hours=1e-9, checkpoints=3, policy_path=str(tmp_path / "p.pt")
    )
    budget = run_budget(args, trainer="test")
    network = PolicyNetwork()
    assert budget.spent(10, network)
    assert budget.progress(10) >= 1
    # The CPU time ends the run but makes no checkpoint: the final save does.
    assert not (tmp_path / "checkpoints.csv").exists()
    budget.finish(network)
    (row,) = csv.DictReader((tmp_path / "checkpoints.csv").open())
    assert row["steps"] == "10"


def test_an_examples_cpu_budget_counts_what_the_process_did_before_it(
    tmp_path: Path,
) -> None:
    """An example's CPU hours are its process's from the start, so a warm start made
    before the budget counts in it; a plain budget counts from when it is made."""
    before = time.process_time()  # this process has imported torch: well above 0
    example = run_budget(Args(policy_path=str(tmp_path / "p.pt")), trainer="test")
    plain = RunBudget(1000, 1.0, 0, tmp_path / "q.pt", lambda path, model: None)
    assert before > 0.1
    assert example.cpu_seconds() >= before
    assert plain.cpu_seconds() < before


def test_checkpoints_are_named_by_steps_alone(tmp_path: Path) -> None:
    """The same steps give the same files on a fast or a slow machine: a CPU budget
    spent from the start does not move them, and the run's folder is made."""
    names = []
    for cpu_hours in (None, 1e-9):
        folder = tmp_path / f"run-{len(names)}" / "nested"
        args = Args(
            steps=100, cpu_hours=cpu_hours, checkpoints=4,
            policy_path=str(folder / "p.pt"),
        )  # fmt: skip
        budget = run_budget(args, trainer="test")
        network = PolicyNetwork()
        for collected in (10, 30, 50):
            budget.spent(collected, network)
        budget.finish(network)
        names.append(sorted(path.name for path in folder.glob("p-*.pt")))
    assert names[0] == ["p-000000030.pt", "p-000000050.pt"]
    assert names[1] == names[0]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cpu_hours", 0.0),
        ("cpu_hours", float("nan")),
        ("checkpoints", -1),
        ("steps", 0),
        ("channels", 0),
        ("channels", 513),
        ("layers", 0),
        ("layers", 41),
    ],
)
def test_budget_arguments_out_of_range_are_refused(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        Args(**{field: value})


def test_teacher_games_warm_start_the_network_toward_the_heuristics_moves(
    capsys: pytest.CaptureFixture,
) -> None:
    """``--teacher-games``: the example's network starts from the PPO recipe's warm
    start, and picks the heuristic's best points on positions it never saw far more
    often than the same network from random weights."""
    args = ExampleArgs(board_size=6, win_length=4, channels=16, seed=1)
    held_out = teacher_games(
        args.config, TeacherGamesConfig(games=40, opening_moves=3),
        np.random.default_rng(99),
    )  # fmt: skip
    agreement = []
    for games in (0, 1000):
        torch.manual_seed(1)
        network = new_network(dataclasses.replace(args, teacher_games=games))
        with torch.no_grad():
            scores, _ = network(torch.as_tensor(held_out.planes))
        scores[~torch.as_tensor(held_out.masks.astype(bool))] = -torch.inf
        top = scores.argmax(dim=1).numpy()
        agreement.append(held_out.best[np.arange(len(top)), top].mean())
    assert agreement[1] > agreement[0] + 0.1, agreement
    assert "warm start on 1000 teacher games" in capsys.readouterr().out
    with pytest.raises(ValueError, match="teacher_games"):
        ExampleArgs(teacher_games=-1)


def test_the_network_flags_shape_the_examples_network(tmp_path: Path) -> None:
    """``--channels``, ``--layers`` and ``--border`` reach the network, and its saved
    file keeps the shape (the zoo's warm-start routes train the PPO recipe's)."""
    args = parse_dataclass(
        ExampleArgs, "", ["--channels", "8", "--layers", "2", "--border"]
    )
    network = new_network(args)
    assert network.shape == PolicyShape(channels=8, layers=2, border=True)
    assert new_network(ExampleArgs()).shape == PolicyShape(32, 3, border=False)
    path = tmp_path / "policy.pt"
    save_policy(path, network, args.config, trainer="test")
    assert load_policy(path).shape == network.shape


@pytest.mark.parametrize(
    ("row", "refusal"),
    [
        (
            "../../elsewhere.pt,100,1.0,1.0",
            "path '../../elsewhere.pt' is not a file name",
        ),
        ("/etc/passwd,100,1.0,1.0", "path '/etc/passwd' is not a file name"),
        ("policy.pt,1e3,1.0,1.0", "steps '1e3' is not a whole number"),
        ("policy.pt,100,nan,1.0", "cpu_seconds 'nan' is not a finite number"),
        ("policy.pt,100,1.0", "wall_seconds None is not a finite number"),
    ],
)
def test_a_checkpoint_list_row_never_points_outside_its_run(
    tmp_path: Path, row: str, refusal: str
) -> None:
    """The zoo copies the model a row names into docs/: a row is a file beside the
    list, with whole steps and finite seconds, or the list is refused naming the line."""
    listing = tmp_path / "checkpoints.csv"
    listing.write_text(f"path,steps,cpu_seconds,wall_seconds\nok.pt,1,0.5,0.5\n{row}\n")
    with pytest.raises(ValueError, match=f"line 3: {re.escape(refusal)}"):
        read_checkpoint_rows(listing)
