"""``gomoku train`` (alphazero, ppo): tiny runs end to end, resumed, exported; flags
from the config fields; bad values rejected."""

from __future__ import annotations

import argparse
import dataclasses
import errno
import json
import os
from pathlib import Path

import pytest
import torch

from agents.alphazero.checkpoint import load_network
from agents.alphazero.training_config import (
    DistillationConfig,
    LearnerConfig,
    NetworkConfig,
    SelfPlayConfig,
    TrainingConfig,
)
from agents.budget import Budget
from agents.training.torch_policy import load_policy
from gomoku_apps.cli.main import build_parser, main
from gomoku_apps.cli.train_alphazero import (
    AlphaZeroRunOptions,
    SelfPlayBudgetFlags,
    run_training,
    training_config,
)

TINY_RUN = [
    "train", "--board-size", "6", "--win-length", "4", "--cpu-hours", "0.00001",
    "--channels", "8", "--blocks", "1", "--parallel-games", "2", "--simulations", "6",
    "--fast-simulations", "3", "--evaluation-every", "0", "--no-progress",
    "--device", "cpu", "--threads", "1",
]  # fmt: skip


def test_train_runs_resumes_and_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out)]) == 0
    assert "starting" in capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    iterations = load_network(out / manifest["checkpoint"])[1]["progress"]["iteration"]
    assert iterations >= 1
    exported = tmp_path / "net.pt"
    assert (
        main(
            [
                *TINY_RUN,
                "--out",
                str(out),
                "--export",
                str(exported),
                "--cpu-hours",  # the last value wins: surely spent, however fast
                "1e-9",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    # The budget counts over resumes: it was spent, so the resumed run stops at once.
    assert "resuming" in printed and "exported" in printed
    network, metadata = load_network(exported)
    assert network.config.channels == 8
    assert (
        metadata["game"]["board_size"] == 6
        and metadata["progress"]["iteration"] == iterations
    )


def test_bad_arguments_are_clear_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([*TINY_RUN, "--out", str(tmp_path), "--simulations", "0"])
    assert exit_info.value.code == 2
    assert "--simulations must be an int >= 1, got 0" in capsys.readouterr().err
    assert main([*TINY_RUN, "--out", str(tmp_path), "--init", "no-such-net"]) == 2
    assert "neither a bundled network" in capsys.readouterr().err


def test_resuming_with_another_rule_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert main([*TINY_RUN, "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main([*TINY_RUN, "--out", str(tmp_path), "--rule", "standard"]) == 2
    assert "rule freestyle → standard" in capsys.readouterr().err


def test_a_file_as_out_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "file"
    out.write_text("")
    assert main([*TINY_RUN, "--out", str(out)]) == 2
    assert "not a folder" in capsys.readouterr().err


@pytest.mark.skipif(torch.cuda.is_available(), reason="this torch sees a CUDA GPU")
@pytest.mark.parametrize("device", ["cuda", "cuda:7", "no-such-device"])
def test_an_unusable_device_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture, device: str
) -> None:
    assert main([*TINY_RUN, "--out", str(tmp_path), "--device", device]) == 2
    assert f"gomoku: error: --device {device}" in capsys.readouterr().err


def test_the_result_is_final_pt_named_in_the_last_line_with_a_before_after_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith(f"the trained network: {out / 'final.pt'}")
    # 6x6 four in a row: commands for those rules, and no reference scale to rate on.
    agent = f"alphazero:weights={out / 'final.pt'}"
    assert f"gomoku play --white {agent} --board-size 6 --win-length 4;" in lines[-1]
    assert "gomoku rate" not in lines[-1]
    assert (
        f"gomoku ladder random heuristic {agent} --board-size 6 --win-length 4"
        in lines[-1]
    )
    before_after = next(line for line in lines if line.startswith("before/after:"))
    assert "8 games" in before_after
    trained, metadata = load_network(out / "final.pt")
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    latest, _ = load_network(out / manifest["checkpoint"])
    # final.pt holds the trained weights (best.pt is only replaced by a won gating).
    for name, tensor in trained.state_dict().items():
        assert (tensor == latest.state_dict()[name]).all(), name
    assert metadata["progress"]["iteration"] >= 1


def test_a_read_only_out_folder_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    out.chmod(0o555)
    if os.geteuid() == 0:  # root writes into read-only folders: make the write fail

        def read_only(*args: object, **kwargs: object) -> None:
            raise PermissionError(errno.EACCES, "Permission denied", str(out))

        monkeypatch.setattr("gomoku_env.files.tempfile.mkstemp", read_only)
    try:
        assert main([*TINY_RUN, "--out", str(out)]) == 2
    finally:
        out.chmod(0o755)
    error = capsys.readouterr().err
    assert error.startswith(f"gomoku: error: cannot write the training run in '{out}'")
    assert "Permission denied" in error and error.count("\n") == 1
    assert not (out / "manifest.json").exists()


def _disk_full(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def _torch_disk_full(*args: object, **kwargs: object) -> None:
    raise RuntimeError(
        "[enforce fail at inline_container.cc:626] . unexpected pos 64 vs 0"
    )


@pytest.mark.parametrize(
    ("writer", "failure", "cause"),
    [
        ("agents.alphazero.replay.write_atomically", _disk_full, "No space left"),
        ("agents.alphazero.checkpoint.torch.save", _torch_disk_full, "disk full"),
    ],
)
def test_a_full_disk_is_one_line_and_keeps_the_last_iteration(
    tmp_path: Path,
    capsys: pytest.CaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    writer: str,
    failure: object,
    cause: str,
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out)]) == 0
    committed = (out / "manifest.json").read_text("utf-8")
    capsys.readouterr()
    more_time = [*TINY_RUN, "--out", str(out), "--cpu-hours", "0.01"]
    with monkeypatch.context() as patch:
        patch.setattr(writer, failure)
        assert main(more_time) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"gomoku: error: cannot write the training run in '{out}'")
    assert cause in error and error.count("\n") == 1
    assert (out / "manifest.json").read_text("utf-8") == committed
    manifest = json.loads(committed)
    assert load_network(out / manifest["checkpoint"])[1]["progress"]["iteration"] >= 1


def test_an_alpha_beta_teacher_is_in_the_metadata(tmp_path: Path) -> None:
    out = tmp_path / "run"
    teacher = ["--teacher-games", "2", "--teacher-steps", "1", "--teacher-depth", "1"]
    assert main([*TINY_RUN, *teacher, "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    metadata = load_network(out / manifest["checkpoint"])[1]
    assert metadata["progress"]["teacher_games"] == 2
    assert "depth=1" in metadata["config"]["distillation"]


def test_a_run_from_init_records_the_shape_it_trained(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert (
        main([*TINY_RUN, "--out", str(first), "--export", str(tmp_path / "a.pt")]) == 0
    )
    wider = [*TINY_RUN, "--channels", "16", "--init", str(tmp_path / "a.pt")]
    assert main([*wider, "--out", str(second)]) == 0
    manifest = json.loads((second / "manifest.json").read_text("utf-8"))
    network, metadata = load_network(second / manifest["checkpoint"])
    assert network.config.channels == 8
    assert "channels=8," in metadata["config"]["network"]


TINY_PPO = [
    "train", "ppo", "--board-size", "5", "--win-length", "4", "--channels", "4",
    "--layers", "1", "--teacher-games", "2", "--teacher-epochs", "1", "--num-envs",
    "4", "--rollout-steps", "4", "--minibatch", "16", "--cpu-hours", "0",
    "--report-every", "1", "--threads", "1", "--no-progress",
]  # fmt: skip


def test_train_ppo_writes_its_policy_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_PPO, "--env-steps", "16", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == f"starting {out}: 0 env steps so far"
    assert any("warm start on 2 teacher games" in line for line in lines)
    assert lines[-3].startswith("done: 16 env steps, 1 updates")
    assert lines[-2].startswith("before/after: ")
    assert lines[-1].startswith(f"the trained network: {out / 'policy.pt'}")
    assert (
        f"--white ppo:weights={out / 'policy.pt'} --board-size 5 --win-length 4"
        in lines[-1]
    )
    assert "no reference scale has these rules" in lines[-1]
    exported = tmp_path / "policy.pt"
    more = ["--env-steps", "32", "--out", str(out), "--export", str(exported)]
    assert main([*TINY_PPO, *more]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == f"resuming {out}: 16 env steps so far"
    assert not any("warm start" in line for line in lines)  # done before the stop
    assert lines[-4].startswith("done: 32 env steps, 2 updates")
    assert "exported" in lines[-2] and exported.is_file()
    assert load_policy(out / "policy.pt") is not None


def test_train_without_a_route_is_train_alphazero() -> None:
    parser = build_parser()
    plain = parser.parse_args([*TINY_RUN, "--out", "x"])
    named = [TINY_RUN[0], "alphazero", *TINY_RUN[1:], "--out", "x"]
    explicit = parser.parse_args(named)
    assert plain.handler is explicit.handler is run_training
    assert vars(plain) == vars(explicit)
    assert training_config(plain) == training_config(explicit)
    assert training_config(plain).network.channels == 8


def test_the_simulation_flags_are_self_play_s_budgets() -> None:
    parser = build_parser()
    given = training_config(parser.parse_args([*TINY_RUN, "--out", "x"])).self_play
    assert given.full_search == Budget(simulations=6)
    assert given.fast_search == Budget(simulations=3)
    unset = training_config(parser.parse_args(["train", "--out", "x"])).self_play
    defaults = SelfPlayConfig()
    assert (unset.full_search, unset.fast_search) == (
        defaults.full_search,
        defaults.fast_search,
    )


def _flag_fields() -> dict[str, tuple[type, str]]:
    """Every field that makes a flag of ``gomoku train alphazero``, by ``dest``."""
    owners = [(AlphaZeroRunOptions, ""), (TrainingConfig, ""), (NetworkConfig, ""),
              (DistillationConfig, "teacher_"), (SelfPlayBudgetFlags, ""),
              (SelfPlayConfig, ""), (LearnerConfig, "")]  # fmt: skip
    return {
        prefix + item.name: (owner, item.name)
        for owner, prefix in owners
        for item in dataclasses.fields(owner)
    }


SHARED = {"help", "board_size", "win_length", "rule", "ray"}
"""Options every verb that plays or trains spells alike (gomoku_apps.cli.options)."""


def test_every_alphazero_flag_is_a_field_with_its_docstring_as_help() -> None:
    train = build_parser().verbs["train"]
    routes = next(
        a for a in train._actions if isinstance(a, argparse._SubParsersAction)
    )
    parser = routes.choices["alphazero"]
    fields = _flag_fields()
    unflagged = []
    for action in parser._actions:
        if action.dest in SHARED:
            continue
        owner, name = fields[action.dest]
        doc = owner.__dataclass_fields__[name].metadata["help"]
        assert doc and action.help.startswith(doc.replace("%", "%%")), action.dest
        metadata = {item.name: item.metadata for item in dataclasses.fields(owner)}
        if metadata[name].get("flag") is None:
            unflagged.append(name)
    assert unflagged == []
    flagged = {
        dest for dest, (owner, name) in fields.items() if _metadata(owner, name).get("flag")
    }  # fmt: skip
    assert flagged <= {action.dest for action in parser._actions}


def _metadata(owner: type, name: str) -> dict:
    return dict(next(i for i in dataclasses.fields(owner) if i.name == name).metadata)


def test_the_gating_threshold_and_schedule_are_flags(tmp_path: Path) -> None:
    parser = build_parser()
    schedule = ["--gating-threshold", "0.7", "--first-drop-at", "0.5"]
    arguments = parser.parse_args([*TINY_RUN, *schedule])
    config = training_config(arguments)
    assert config.gating_threshold == 0.7 and config.learner.first_drop_at == 0.5
    with pytest.raises(SystemExit):
        parser.parse_args([*TINY_RUN, "--gating-threshold", "2"])


def test_the_out_folder_fills_only_its_two_placeholders() -> None:
    from gomoku_apps.cli.training import RunOptions

    assert RunOptions().folder("ppo", 9) == "runs/ppo-9x9"
    # Other braces are a folder name's own text, never a format field.
    assert (
        RunOptions(out="x/{size}/{0}{other}").folder("alphazero", 7) == "x/7/{0}{other}"
    )


def test_the_closing_line_rates_on_a_reference_scale_where_one_has_the_rules() -> None:
    from gomoku_apps.cli.training import where_to_play
    from gomoku_env import GameConfig

    line = where_to_play("run/final.pt", "alphazero", GameConfig(9))
    assert (
        "gomoku rate alphazero:weights=run/final.pt --board-size 9 --win-length 5"
        in line
    )
    renju = where_to_play("my run/final.pt", "ppo", GameConfig(15, rule="renju"))
    assert (
        "'ppo:weights=my run/final.pt' --board-size 15 --win-length 5 --rule renju"
        in renju
    )
    assert "gomoku rate" not in renju


def test_an_export_path_that_is_a_folder_is_refused_before_training(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    (tmp_path / "policy.pt").mkdir()
    out = tmp_path / "run"
    arguments = [*TINY_PPO, "--env-steps", "16", "--out", str(out)]
    assert main([*arguments, "--export", str(tmp_path / "policy.pt")]) == 2
    assert "policy.pt' is a directory" in capsys.readouterr().err
    assert not out.exists()  # nothing trained, nothing written


@pytest.mark.parametrize("route", ["alphazero", "ppo"])
def test_a_folder_of_someone_else_s_files_is_refused_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture, route: str
) -> None:
    """A folder with files but no run: gomoku train deleted the user's latest-*.pt and
    replay-*.npz, rewrote metrics.csv and adopted a foreign best.pt. (A best.pt alone
    marks an AlphaZero run killed in its first iteration; beside other files it marks
    none.)"""
    out = tmp_path / "mine"
    out.mkdir()
    for name in ("latest-000001.pt", "replay-000001.npz", "metrics.csv", "best.pt"):
        (out / name).write_text("the user's")
    run = TINY_RUN if route == "alphazero" else [*TINY_PPO, "--env-steps", "16"]
    assert main([*run, "--out", str(out)]) == 2
    assert "holds files but no" in capsys.readouterr().err
    assert all((out / name).read_text() == "the user's" for name in
               ("latest-000001.pt", "replay-000001.npz", "metrics.csv", "best.pt"))  # fmt: skip


def test_a_second_run_on_a_locked_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """Two runs on one folder destroyed each other's files; the second is refused
    while the first holds the folder."""
    from gomoku_apps.cli.training import claimed_run_folder

    out = tmp_path / "run"
    with claimed_run_folder(out, "ppo", force=False):
        assert main([*TINY_PPO, "--env-steps", "16", "--out", str(out)]) == 2
    assert "another gomoku train is running in" in capsys.readouterr().err
    assert main([*TINY_PPO, "--env-steps", "16", "--out", str(out)]) == 0


def test_a_lock_file_replaced_by_a_fifo_or_a_link_is_refused_not_waited_on(
    tmp_path: Path,
) -> None:
    """Opening the lock followed a link and blocked on a FIFO put in its place."""
    import os

    from gomoku_apps.cli.training import LOCK_FILE, claimed_run_folder

    for name, make in (("fifo", os.mkfifo), ("link", None)):
        out = tmp_path / name
        out.mkdir()
        if make is None:
            (tmp_path / "elsewhere").write_text("")
            (out / LOCK_FILE).symlink_to(tmp_path / "elsewhere")
        else:
            make(out / LOCK_FILE)
        with (
            pytest.raises(ValueError, match="cannot be the run's lock"),
            claimed_run_folder(out, "ppo", force=False),
        ):
            pass


def only_best(out: Path) -> None:
    """The folder as a run killed in its first iteration leaves it: best.pt alone."""
    for path in out.iterdir():
        if path.name != "best.pt":
            if path.is_dir():
                for inner in path.iterdir():
                    inner.unlink()
                path.rmdir()
            else:
                path.unlink()


def test_a_run_killed_in_its_first_iteration_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    assert main([*TINY_RUN, "--out", str(out)]) == 0
    only_best(out)
    capsys.readouterr()
    assert main([*TINY_RUN, "--out", str(out)]) == 0, capsys.readouterr().err
    assert (out / "manifest.json").is_file()


def test_another_boards_best_pt_is_refused_even_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    seven = [*TINY_RUN, "--out", str(out)]
    seven[seven.index("--board-size") + 1] = "7"
    assert main(seven) == 0
    only_best(out)
    capsys.readouterr()
    assert main([*TINY_RUN, "--out", str(out), "--force"]) == 2
    error = capsys.readouterr().err
    assert "best.pt" in error and "board_size 7 → 6" in error
    assert not (out / "manifest.json").exists()
