"""A wheel built from the tree installs and runs the quick start in a fresh venv.

The README says to install from a clone, the repository or a built wheel (the package is
not on PyPI); this builds the wheel, installs it into an empty virtual environment's
path with no access to the source tree, and plays the PettingZoo quick start there,
checking that the package data (networks, anchors, opening book, web page) came along.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

QUICK_START = textwrap.dedent(
    """
    import sys
    from importlib import resources

    import gomoku_env
    from agents import RandomAgent

    env = gomoku_env.env(board_size=7, render_mode="ansi")
    env.reset(seed=42)
    players = {"black_0": RandomAgent(seed=1), "white_0": RandomAgent(seed=2)}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else players[agent].act(observation)
        env.step(action)
    print(info["reason"])
    data = {
        "weights": resources.files("agents.alphazero") / "weights" / "9x9.pt",
        "anchors": resources.files("agents.scales") / "anchors",
        "page": resources.files("gomoku_apps.web") / "static" / "index.html",
    }
    print(sorted(name for name, path in data.items() if path.is_file() or path.is_dir()))
    print(gomoku_env.__file__)
    """
)


def source_copy(destination: Path) -> Path:
    """The tree's files (tracked, and new ones git does not ignore) copied to
    ``destination``: a build there cannot pick up stale modules from a ``build/``
    folder of earlier builds, nor touch the working tree."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def test_a_built_wheel_installs_and_runs_the_quick_start(tmp_path: Path) -> None:
    source = source_copy(tmp_path / "source")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--quiet", "-w", str(tmp_path / "dist"), str(source)],
        check=True,
        cwd=tmp_path,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("gomoku_env-*.whl")
    target = tmp_path / "installed"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet",
         "--target", str(target), str(wheel)],
        check=True,
        cwd=tmp_path,
    )  # fmt: skip
    fresh = tmp_path / "venv"
    venv.create(fresh, with_pip=False)
    # The wheel first, then this environment's dependencies (numpy, numba, ...) by
    # path only: no .pth file runs, so the editable install of the tree stays out.
    dependencies = sysconfig.get_paths()["purelib"]
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.pathsep.join([str(target), dependencies]),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
    }
    result = subprocess.run(
        [str(fresh / "bin" / "python"), "-c", QUICK_START],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    reason, data, location = result.stdout.splitlines()[-3:]
    assert reason in ("five", "board_full")
    assert data == "['anchors', 'page', 'weights']"
    assert location.startswith(str(target))
