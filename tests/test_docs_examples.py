"""The README and the documentation site: the examples run and the site builds.

Every ```python block of README.md and docs/*.md runs here, each in a fresh namespace
and an empty working folder (the few that cannot are skipped with the reason written
above them); every ``gomoku`` command line in a ```bash block must parse with the
``gomoku`` command's own parser, so a renamed flag or verb fails here.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

import pytest

from gomoku_apps.cli.main import SUBCOMMANDS, build_parser
from tests.docs_examples import ROOT, all_blocks, code_blocks, gomoku_commands

PYTHON_BLOCKS = all_blocks("python")

BASH_BLOCKS = [block for block in all_blocks("bash") if gomoku_commands(block.code)]


def test_the_pages_hold_examples_of_both_kinds():
    assert len(PYTHON_BLOCKS) >= 20
    assert len(BASH_BLOCKS) >= 10
    skipped = [block for block in PYTHON_BLOCKS if block.skip_reason]
    assert len(skipped) <= 6, [block.name for block in skipped]


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda block: block.name)
def test_python_example_runs(block, tmp_path, monkeypatch):
    if block.skip_reason:
        pytest.skip(block.skip_reason)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    code = compile(block.code, block.name, "exec")
    with _one_torch_thread(), contextlib.redirect_stdout(io.StringIO()):
        exec(code, {"__name__": "__docs_example__"})


@contextlib.contextmanager
def _one_torch_thread():
    """Examples that train a network stay small, and one torch thread keeps them quick
    on a busy machine (an earlier example, AlphaZero's, may have set more); the
    previous count comes back afterwards."""
    try:
        import torch
    except ImportError:
        yield
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


@pytest.mark.parametrize("block", BASH_BLOCKS, ids=lambda block: block.name)
def test_gomoku_commands_parse(block):
    parser = build_parser()
    for arguments in gomoku_commands(block.code):
        with contextlib.redirect_stderr(io.StringIO()) as errors:
            try:
                parsed = parser.parse_args(arguments)
            except SystemExit as exit_:
                assert exit_.code == 0, (
                    f"gomoku {' '.join(arguments)}: {errors.getvalue()}"
                )
                continue
        assert hasattr(parsed, "handler"), f"gomoku {' '.join(arguments)} runs nothing"


def test_gomoku_command_lines_are_found_in_shell_blocks():
    shell = "$ printf 'x' | gomoku brain random --seed 1  # comment\n" + (
        ".venv/bin/gomoku arena random \\\n  heuristic --games 2\ngomokuX play\nOK\n"
    )
    assert gomoku_commands(shell) == [
        ["brain", "random", "--seed", "1"],
        ["arena", "random", "heuristic", "--games", "2"],
    ]


def test_skip_marks_are_read_from_the_line_above_a_fence(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "text\n\n<!-- skip: needs a display -->\n```python\nshow()\n```\n\n"
        "```python\n  x = 1\n```\n  ```bash\n  gomoku play\n  ```\n"
    )
    first, second, third = code_blocks(page)
    assert (first.line, first.code, first.skip_reason) == (
        4,
        "show()",
        "needs a display",
    )
    assert (second.code, second.skip_reason) == ("  x = 1", None)
    assert (third.language, third.code) == ("bash", "gomoku play")


def test_readme_starts_with_the_two_set_up_commands_and_reaches_gomoku():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_shell = next(block for block in code_blocks(ROOT / "README.md"))
    commands = [line.split("#")[0].strip() for line in first_shell.code.splitlines()]
    assert commands[:2] == ["make demo", "make test"]
    assert "source .venv/bin/activate" in readme
    assert (
        "pip install torch --index-url https://download.pytorch.org/whl/cpu" in readme
    )
    assert len(readme.splitlines()) < 250


def test_readme_command_table_lists_every_verb():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for verb in SUBCOMMANDS:
        assert f"| `gomoku {verb}" in readme, verb


def test_readme_python_version_matches_the_package():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'requires-python = ">=3.10"' in pyproject
    assert "Python 3.10" in readme
    assert "Python 3.11" not in readme


def test_site_builds_with_warnings_as_errors(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (the docs extra)")
    pytest.importorskip("material", reason="mkdocs-material is not installed")
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "--site-dir",
            str(tmp_path / "site"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "ladder-9x9.csv").is_file()
