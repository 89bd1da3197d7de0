"""Alpha-beta and VCF speed on fixed mid-game 15×15 positions.

The positions are reached by two seeded HeuristicAgents from seeded random openings
(the same positions on every run). Prints nodes per second for a depth-limited
alpha-beta search and for VCF searches, each with its ratio to the rate of the
evaluator's elementary step (one place + remove pair) measured in the same run; rounds
are interleaved and medians reported, since the machine may be shared.

    python benchmarks/bench_search.py --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from numba import njit

import gomoku_env
from agents.classic import alphabeta_search as search
from agents.classic.heuristic import HeuristicAgent
from agents.classic.reports import pattern_state
from agents.patterns.pattern_state import PatternState, place, remove
from agents.patterns.threats import find_vcf
from gomoku_env import Board, GameConfig

POSITIONS = 6
MOVES_PLAYED = 24
SEARCH_DEPTH = 4
BRANCHING = 10


def midgame_positions() -> list[Board]:
    """Positions after ``MOVES_PLAYED`` heuristic moves from seeded openings."""
    boards = []
    for seed in range(POSITIONS):
        env = gomoku_env.raw_env(random_opening=4)
        env.reset(seed=seed)
        board = env.board
        agent = HeuristicAgent(seed=seed)
        for _ in range(MOVES_PLAYED):
            move = agent.act(board)
            board.play(move)
            if board.is_over:
                board.undo()
                break
        boards.append(board.copy())
    return boards


@njit(cache=True)
def _place_remove_pairs(state: PatternState) -> int:
    pairs = 0
    for point in range(state.cells.size):
        if state.cells[point] == 0 and state.near[point] > 0:
            place(state, point, 1)
            remove(state, point)
            pairs += 1
    return pairs


def step_rate(states: list[PatternState]) -> float:
    """Place + remove pairs per second (compiled loop) on empty points near stones."""
    pairs, start = 0, time.perf_counter()
    for state in states:
        pairs += _place_remove_pairs(state)
    return pairs / (time.perf_counter() - start)


def alphabeta_rate(boards: list[Board]) -> float:
    """Alpha-beta nodes per second (depth-limited, no clock, fresh tables)."""
    nodes, start = 0, time.perf_counter()
    for board in boards:
        state = pattern_state(board)
        zobrist = search.zobrist_keys(board.config.cells)
        context = search.SearchContext(
            zobrist=zobrist, tie_rank=np.arange(225, dtype=np.int64),
            counters=np.zeros(search.COUNTER_SLOTS, dtype=np.int64),
            root_moves=np.empty(0, dtype=np.int64), branching=BRANCHING,
            leaf_vcf_plies=5, leaf_vcf_nodes=200,
        )  # fmt: skip
        context.counters[search.NODE_LIMIT] = 10**12
        search.negamax(
            state, search.new_table(18), context, board.to_move, SEARCH_DEPTH,
            -search.INFINITY, search.INFINITY, 0, search.position_hash(state, zobrist),
        )  # fmt: skip
        nodes += context.counters[search.NODES] + context.counters[search.VCF_NODES]
    return nodes / (time.perf_counter() - start)


def vcf_rate(states: list[PatternState]) -> float:
    """VCF nodes per second, searching for both colours in every position."""
    line = np.empty(32, dtype=np.int64)
    nodes, start = 0, time.perf_counter()
    for state in states:
        for color in (1, 2):
            nodes += find_vcf(state, color, 31, 50_000, line)[1]
    return nodes / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    boards = midgame_positions()
    states = [pattern_state(board) for board in boards]
    alphabeta_rate(boards[:1])  # compile before timing
    vcf_rate(states[:1])
    step_rate(states[:1])
    results: dict[str, list[float]] = {"step": [], "alphabeta": [], "vcf": []}
    for _ in range(rounds):
        results["step"].append(step_rate(states))
        results["alphabeta"].append(alphabeta_rate(boards))
        results["vcf"].append(vcf_rate(states))
    medians = {name: statistics.median(values) for name, values in results.items()}
    print(
        f"{POSITIONS} positions after {MOVES_PLAYED} moves, {rounds} rounds, medians:"
    )
    print(f"  evaluator place+remove pairs/s   {medians['step']:>12,.0f}  (reference)")
    for name in ("alphabeta", "vcf"):
        ratio = medians[name] / medians["step"]
        print(
            f"  {name:<10} nodes/s              {medians[name]:>12,.0f}"
            f"  ({ratio:.2f}x ref)"
        )
    print(
        f"  alpha-beta: depth {SEARCH_DEPTH}, branching {BRANCHING}, leaf VCF 5 plies"
    )
    print(f"  config: {GameConfig()}")


if __name__ == "__main__":
    main()
