"""The GPU-machine self-play driver: its flags, its results files, and the shell script
that calls it (run with ``echo`` in place of Python, so the test sees the command)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.scripts_as_modules import ROOT, load_script

driver = load_script("scripts/device_selfplay.py")


def test_driver_flags_are_split_from_the_training_flags() -> None:
    own, rest = driver.driver_arguments(
        ["--results", "out", "--jobs", "3", "--board-size", "15", "--init", "x.pt"]
    )
    assert own.results == "out"
    assert own.jobs == 3
    assert own.train_hours is None
    assert rest == ["--board-size", "15", "--init", "x.pt"]


def test_summary_counts_throughput_and_replaces_the_file(tmp_path: Path) -> None:
    progress = SimpleNamespace(
        iteration=2, games=100, samples=800, train_steps=30, seconds=50.0
    )
    (tmp_path / "summary.json").write_text("old")
    summary = driver.write_summary(tmp_path, progress, {"command": "c"})
    assert summary["games_per_second"] == 2.0
    assert summary["samples_per_second"] == 16.0
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    assert [path.name for path in tmp_path.iterdir()] == ["summary.json"]


def test_copy_atomically_leaves_no_part_file(tmp_path: Path) -> None:
    source, target = tmp_path / "a.pt", tmp_path / "b.pt"
    source.write_bytes(b"network")
    driver.copy_atomically(source, target)
    assert target.read_bytes() == b"network"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.pt", "b.pt"]


@pytest.mark.parametrize(
    ("flags", "refusal"),
    [
        (["--jobs", "0"], "--jobs"),
        (["--jobs", "100000"], "4 per CPU"),
        (["--wall-seconds", "nan"], "--wall-seconds"),
        (["--train-hours", "inf"], "--train-hours"),
    ],
)
def test_driver_flags_out_of_range_are_refused(flags, refusal, capsys) -> None:
    with pytest.raises(SystemExit):
        driver.driver_arguments(["--results", "out", *flags])
    assert refusal in capsys.readouterr().err


def test_a_fresh_run_deletes_a_folder_only_when_told(tmp_path: Path) -> None:
    out = tmp_path / "someone's work"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(SystemExit, match=r"holds files.*--force"):
        driver.start_afresh(out, force=False)
    assert (out / "notes.txt").read_text() == "keep me"
    (tmp_path / "a file").write_text("x")
    with pytest.raises(SystemExit, match="is not a folder"):
        driver.start_afresh(tmp_path / "a file", force=True)
    driver.start_afresh(tmp_path / "empty", force=False)  # nothing there: nothing done
    driver.start_afresh(out, force=True)
    assert not out.exists()


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({}, ["--init 15x15-gumbel", "--gumbel-actions 0", "--simulations 200"]),
        (
            {"INIT": "run1.pt", "GUMBEL": "16", "SIMS": "32", "FAST": "8"},
            ["--init run1.pt", "--gumbel-actions 16", "--simulations 32",
             "--fast-simulations 8"],
        ),
    ],
)  # fmt: skip
def test_the_shell_script_passes_its_settings(
    tmp_path: Path, settings: dict[str, str], expected: list[str]
) -> None:
    environment = {
        **os.environ, **settings, "OUT": str(tmp_path), "PYTHON": "echo",
        "WALL": "60", "RUN": str(tmp_path / "run"),
    }  # fmt: skip
    completed = subprocess.run(
        ["bash", "scripts/device_selfplay.sh"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    log = (tmp_path / "train.log").read_text()
    command = next(line for line in log.splitlines() if "--results" in line)
    for flag in expected:
        assert f" {flag} " in f"{command} "
    assert f"--results {tmp_path} " in command
    assert " --force " in command  # RUN is the script's own folder, replaced
