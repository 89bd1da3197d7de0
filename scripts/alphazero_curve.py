"""Draw AlphaZero learning curves: every kept network rated on the reference scale.

Each RUN is a ``gomoku train --snapshot-every N`` folder (its ``snapshots/*.pt``, plus
``final.pt`` or any ``--extra`` file written by ``--export``). Every network plays the
chosen anchors of the stored reference ladder with their ratings held fixed (as
``gomoku rate`` does) and the rows go to ``OUTPUT.csv``; ``OUTPUT.png`` draws them
against CPU hours and self-play games. Run from the repository root, e.g.:

    .venv/bin/python scripts/alphazero_curve.py runs/az9 --board-size 9 \\
        --anchors mcts:simulations=400 heuristic alphabeta:nodes=2000 \\
        --games 8 --jobs 2 --output docs/alphazero/curve-9x9-2h
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agents.scales.reference import reference_scale
from gomoku_apps.arena.learning_curve import (
    plot_curve,
    rate_snapshots,
    read_snapshots,
    write_curve_csv,
)
from gomoku_apps.arena.match import Arena


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="folder of a gomoku train run")
    parser.add_argument("--board-size", type=int, required=True)
    parser.add_argument("--anchors", nargs="+", help="anchors (default: all)")
    parser.add_argument("--games", type=int, default=6, help="games per anchor")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent-options", default="simulations=200")
    parser.add_argument("--extra", nargs="*", type=Path, default=[], help="more files")
    parser.add_argument("--output", type=Path, required=True, help="CSV/PNG prefix")
    arguments = parser.parse_args()

    scale = reference_scale(arguments.board_size)
    if arguments.anchors:
        scale = scale.select(arguments.anchors)
    paths = sorted((arguments.run / "snapshots").glob("*.pt")) + arguments.extra
    snapshots = read_snapshots(paths)
    arena = Arena(scale.config, seed=arguments.seed, jobs=arguments.jobs)
    rows = rate_snapshots(
        arena,
        snapshots,
        scale,
        arguments.games,
        arguments.agent_options,
        on_point=lambda row: print(row, flush=True),
    )
    csv_path = arguments.output.with_suffix(".csv")
    write_curve_csv(rows, csv_path)
    size = arguments.board_size
    plot_curve(
        {f"{size}x{size}, {arguments.agent_options}": rows},
        scale.name,
        arguments.output.with_suffix(".png"),
    )
    print(f"wrote {csv_path} and {arguments.output.with_suffix('.png')}")


if __name__ == "__main__":
    main()
