"""``gomoku train``: a tiny run end to end, resumed, exported; bad values rejected."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.alphazero.checkpoint import load_network
from gomoku_apps.cli.main import main

TINY_RUN = [
    "train", "--board-size", "6", "--win-length", "4", "--hours", "0.00001",
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
    iterations = load_network(out / "latest.pt")[1]["progress"]["iteration"]
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
    assert main([*TINY_RUN, "--out", str(tmp_path), "--simulations", "0"]) == 2
    assert "SelfPlayConfig.simulations must be" in capsys.readouterr().err
    assert main([*TINY_RUN, "--out", str(tmp_path), "--init", "no-such-net"]) == 2
    assert "neither a bundled network" in capsys.readouterr().err
