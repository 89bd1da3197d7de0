"""How long a rating for a paper takes: ``gomoku rate SPEC --margin E`` on this machine.

Runs the command (``heuristic`` on 9×9 to ±50 Elo by default) as a user would, in a
child process, and prints its wall time against the target (10 minutes for
``heuristic --board-size 9 --margin 50`` on a 2-core machine), the games it played and
its rating line. Work budgets make the games, and so the rating, the same on every
run: only the time depends on the machine. Run with ``gomoku bench rate`` or
``.venv/bin/python benchmarks/bench_rate.py --jobs 2``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

TARGET_SECONDS = 600.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="heuristic")
    parser.add_argument("--board-size", default="9")
    parser.add_argument("--margin", default="50")
    parser.add_argument("--jobs", default="2")
    args = parser.parse_args()
    command = [sys.executable, "-m", "gomoku_apps.cli.main", "rate", args.spec]
    command += ["--board-size", args.board_size, "--margin", args.margin]
    command += ["--jobs", args.jobs, "--no-progress"]
    started = time.perf_counter()
    finished = subprocess.run(command, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    lines = finished.stdout.splitlines()
    for line in lines:
        if line.startswith(("rating ", "reproduce: ")):
            print(line)
    verdict = "within" if seconds <= TARGET_SECONDS else "over"
    print(
        f"wall time {seconds:.0f} s with --jobs {args.jobs}: {verdict} the target of "
        f"{TARGET_SECONDS:.0f} s"
    )


if __name__ == "__main__":
    main()
