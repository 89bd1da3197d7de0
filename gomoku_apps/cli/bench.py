"""``gomoku bench NAME``: run a benchmark script from the source tree's benchmarks/."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

SOURCE_BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def benchmark_scripts(directory: Path) -> dict[str, Path]:
    """Benchmarks by name: ``bench_env.py`` is ``env``."""
    if not directory.is_dir():
        return {}
    return {
        path.stem.removeprefix("bench_"): path
        for path in sorted(directory.glob("*.py"))
        if not path.name.startswith("_")
    }


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``bench`` command."""
    parser = subparsers.add_parser(
        "bench",
        help="run a benchmark script by name",
        description="Run benchmarks/bench_NAME.py with this Python; the arguments "
        "after NAME go to the script. Without NAME, list the benchmarks.",
    )
    parser.add_argument("name", nargs="?", help="benchmark name (e.g. arena)")
    parser.add_argument(
        "script_arguments",
        nargs=argparse.REMAINDER,
        metavar="...",
        help="arguments for the benchmark script",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=SOURCE_BENCHMARKS,
        metavar="DIR",
        help="where the benchmark scripts are (default: the source tree's benchmarks/)",
    )
    parser.set_defaults(handler=run_bench)


def run_bench(arguments: argparse.Namespace) -> int:
    """List the benchmarks, or run one and return its exit code."""
    scripts = benchmark_scripts(arguments.dir)
    if arguments.name is None:
        if not scripts:
            raise FileNotFoundError(f"no benchmark scripts in {arguments.dir}")
        print("\n".join(scripts))
        return 0
    if arguments.name not in scripts:
        raise ValueError(
            f"unknown benchmark {arguments.name!r}; "
            f"available: {', '.join(scripts) or 'none'}"
        )
    command = [
        sys.executable,
        str(scripts[arguments.name]),
        *arguments.script_arguments,
    ]
    return subprocess.run(command, check=False).returncode
