"""Every verb checks its extras before it starts and names the one to install."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.docs_examples import ROOT

BLOCKED = {
    "play": ("pygame", ["play"]),
    "replay": ("pygame", ["replay", "game.txt"]),
    "gif": ("PIL", ["gif", "game.txt", "-o", "game.gif"]),
    "train": ("tqdm", ["train", "--cpu-hours", "0.001"]),
    "ladder": ("matplotlib", ["ladder", "random", "random:x=1", "--games", "2"]),
    "serve": ("uvicorn", ["serve"]),
}


@pytest.mark.parametrize("verb", sorted(BLOCKED))
def test_a_missing_extra_is_one_line_before_the_verb_starts(verb, tmp_path):
    module, arguments = BLOCKED[verb]
    code = textwrap.dedent(
        f"""
        import os, sys
        sys.modules[{module!r}] = None  # as on a machine without it
        os.environ.setdefault("DISPLAY", ":0")
        from gomoku_apps.cli.main import main
        raise SystemExit(main({arguments!r}))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2, result.stderr
    error = result.stderr.strip()
    assert len(error.splitlines()) == 1, error
    assert f"gomoku {verb} needs {module}, which is not installed" in error
    assert "pip install -e '.[" in error
    assert not (tmp_path / "out").exists()


def test_ladder_without_a_plot_needs_no_matplotlib():
    from gomoku_apps.cli.main import build_parser, missing_extra

    arguments = build_parser().parse_args(
        ["ladder", "random", "heuristic", "--no-plot"]
    )
    assert missing_extra(arguments) is None
