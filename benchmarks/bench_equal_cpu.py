"""Equal CPU a move: the alpha-beta node budget that costs what another agent's move does.

A match "at equal CPU" (AlphaZero at its simulations against alpha-beta) needs the node
count whose move costs what the other agent's move costs on this machine. Each spec
moves once from the same positions (the arena's book openings, then a few seeded
`heuristic` moves), reset before every move so that no tree is reused; the cost is the
thread's CPU time (torch runs on the calling thread with `threads=1`), in interleaved
rounds, medians over rounds. Alpha-beta's costs at the given node budgets are then
interpolated to the reference's cost.

These are clock figures: they differ from machine to machine (a network's convolutions
and alpha-beta's compiled search gain differently from a processor's vector units), so
the node count found goes into the match's spec, which then reproduces anywhere.

    python benchmarks/bench_equal_cpu.py --board-size 15 \\
        --reference alphazero:simulations=200 alphazero:simulations=400 \\
        --nodes 20000 40000 60000 80000
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import gomoku_env
from agents.base import Agent
from agents.classic.heuristic import HeuristicAgent
from agents.specs.parse import make_agent
from gomoku_apps.arena.openings import builtin_openings
from gomoku_apps.cli.options import positive_int
from gomoku_env.config import GameConfig

EXTRA_MOVES = (2, 8)
"""Heuristic moves played after each book opening: an early and a middle position."""


def positions(config: GameConfig) -> list[list[int]]:
    """Move lists of the timed positions: each book opening, then ``EXTRA_MOVES``
    seeded heuristic moves (a position the heuristic's moves end is skipped)."""
    found = []
    for index, opening in enumerate(builtin_openings(config)):
        for extra in EXTRA_MOVES:
            board = gomoku_env.Board(config)
            for move in opening:
                board.play(move)
            heuristic = HeuristicAgent(seed=index)
            moves = list(opening)
            for _ in range(extra):
                if board.is_over:
                    break
                move = heuristic.act(board)
                board.play(move)
                moves.append(move)
            if not board.is_over:
                found.append(moves)
    return found


def observations(config: GameConfig, lines: list[list[int]]) -> list[dict]:
    """The side to move's PettingZoo observation in each position."""
    result = []
    for moves in lines:
        env = gomoku_env.env(
            board_size=config.board_size, win_length=config.win_length, opening=moves
        )
        env.reset(seed=0)
        result.append(env.last()[0])
    return result


def milliseconds_a_move(agent: Agent, observed: list[dict]) -> float:
    """Mean thread CPU milliseconds of one move from each position, tree forgotten."""
    total = 0.0
    for observation in observed:
        agent.reset(seed=0)
        start = time.thread_time()
        agent.act(observation)
        total += time.thread_time() - start
    return 1000 * total / len(observed)


def matched_nodes(costs: dict[int, float], cost: float) -> tuple[int, bool]:
    """The node budget (to the nearest thousand) whose move costs ``cost``, by linear
    interpolation between the timed budgets ``costs`` (nodes -> ms), and whether
    ``cost`` lies inside their range (outside, the nearest end is given)."""
    nodes = sorted(costs, key=costs.get)
    spent = [costs[count] for count in nodes]
    matched = float(np.interp(cost, spent, nodes))
    return int(round(matched, -3)), spent[0] <= cost <= spent[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board-size", type=positive_int, default=15)
    parser.add_argument("--win-length", type=positive_int, default=5)
    parser.add_argument("--reference", nargs="+", default=["alphazero:simulations=200"])
    parser.add_argument(
        "--nodes", type=positive_int, nargs="+", default=[20_000, 40_000, 60_000]
    )
    parser.add_argument("--rounds", type=positive_int, default=3)
    args = parser.parse_args()
    config = GameConfig(board_size=args.board_size, win_length=args.win_length)
    observed = observations(config, positions(config))
    budgets = [f"alphabeta:nodes={nodes}" for nodes in args.nodes]
    specs = args.reference + budgets
    agents = {spec: make_agent(spec, config, seed=0) for spec in specs}
    for agent in agents.values():  # compile and load before timing
        milliseconds_a_move(agent, observed[:1])
    costs: dict[str, list[float]] = {spec: [] for spec in specs}
    for _ in range(args.rounds):
        for spec, agent in agents.items():
            costs[spec].append(milliseconds_a_move(agent, observed))
    medians = {spec: statistics.median(values) for spec, values in costs.items()}
    print(
        f"{len(observed)} positions on {args.board_size}x{args.board_size}, "
        f"{args.rounds} rounds, thread CPU ms a move (median of rounds):"
    )
    for spec, value in medians.items():
        print(f"  {spec:<48} {value:9.1f}")
    costs_by_nodes = {
        nodes: medians[f"alphabeta:nodes={nodes}"] for nodes in args.nodes
    }
    for reference in args.reference:
        matched, inside = matched_nodes(costs_by_nodes, medians[reference])
        print(
            f"equal CPU: alphabeta:nodes={matched} costs what {reference} does"
            + ("" if inside else " (outside the node budgets timed: widen --nodes)")
        )


if __name__ == "__main__":
    main()
