"""Simulations per second of the MCTS search core, against OpenSpiel's C++ MCTSBot.

Both sides run plain UCT with full-board uniform random rollouts (one per leaf), the
same exploration constant, no solver and no candidate restriction, on three
positions: an empty 15×15 board, a fixed 15×15 mid-game position and an empty 9×9
board. Ours runs as one search and as 64 searches run in turn in one thread (rollout
searches share no evaluator call, so lockstep would only interleave the same work);
OpenSpiel's ``MCTSBot`` (C++, through ``pyspiel``) runs when open-spiel is installed
(``pip install -e '.[bench]'``). Everything runs in the calling thread and is timed in
CPU seconds of that thread (``time.thread_time``), so a busy shared machine does not
skew the ratios; rounds are interleaved and medians reported. Also printed: our nodes
and bytes of tree per simulation, and our speed with the MCTS agent's defaults
(tactical nodes and rollouts, candidates within 2), which is a different policy, and
the batched external-evaluator path (64 searches stepped together, 8 leaves each per
round, one call of a free uniform evaluator per round): the search's own cost per
simulation when a network evaluates the leaves.

    python benchmarks/bench_mcts.py [--simulations 4000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from agents.search import SearchOptions, SearchTree, run_searches
from gomoku_env import Board, GameConfig

MID_GAME = [158, 110, 78, 48, 70, 131, 113, 174, 127, 85, 138, 100, 108, 144, 154, 55,
            52, 50, 111, 93]  # fmt: skip
POSITIONS = {
    "empty 15x15": (15, []),
    "mid-game 15x15": (15, MID_GAME),
    "empty 9x9": (9, []),
}
EXPLORATION = 2.0
PLAIN = SearchOptions(
    formula="uct", exploration=EXPLORATION, tactical=False, distance=0, rollout="random"
)
"""OpenSpiel's search: UCT over uniformly random rollouts on every point."""
TACTICAL = SearchOptions(formula="uct", exploration=1.4, distance=2, rollout="tactical")
"""The agent's kind of search: tactical nodes and rollouts, candidates within 2."""
NODE_BYTES = 4 + 8 + 8 + 8 + 4 + 2 + 4 + 4 + 4 + 1 + 1
EDGE_BYTES = 2 + 4 + 4


def ours_single(
    size: int, moves: list[int], simulations: int, options: SearchOptions, seed: int
) -> tuple[float, SearchTree]:
    """Simulations per second of one search from a fresh tree, and the tree."""
    game = GameConfig(board_size=size)
    tree = SearchTree(game, options, seed=seed)
    tree.reset(Board.from_moves(moves, game))
    started = time.thread_time()
    (done,) = run_searches([tree], None, simulations=simulations)
    return done / (time.thread_time() - started), tree


def ours_many(
    size: int, moves: list[int], simulations: int, count: int, seed: int
) -> float:
    """Total simulations per second of ``count`` searches, one after another."""
    game = GameConfig(board_size=size)
    trees = [SearchTree(game, PLAIN, seed=seed + k) for k in range(count)]
    board = Board.from_moves(moves, game)
    for tree in trees:
        tree.reset(board)
    started = time.thread_time()
    # One after another in this thread (the driver would spread them over threads).
    done = sum(run_searches([tree], None, simulations)[0] for tree in trees)
    return done / (time.thread_time() - started)


class UniformEvaluator:
    """Uniform priors over legal moves and value 0: an evaluator that costs nothing."""

    def evaluate(
        self, planes: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        priors = masks.astype(np.float32)
        priors /= priors.sum(axis=1, keepdims=True)
        return priors, np.zeros(len(masks), dtype=np.float32)


def ours_stepped(
    size: int, moves: list[int], simulations: int, count: int, seed: int
) -> float:
    """Total simulations per second of ``count`` PUCT searches stepped together through
    the batched evaluator API (8 leaves per search per round)."""
    game = GameConfig(board_size=size)
    options = SearchOptions(
        formula="puct", exploration=1.4, tactical=False, distance=0, leaves_per_round=8
    )
    trees = [SearchTree(game, options, seed=seed + k) for k in range(count)]
    board = Board.from_moves(moves, game)
    for tree in trees:
        tree.reset(board)
    started = time.thread_time()
    done = sum(run_searches(trees, UniformEvaluator(), simulations))
    return done / (time.thread_time() - started)


def openspiel_rate(size: int, moves: list[int], simulations: int, count: int,
                   seed: int) -> float:  # fmt: skip
    """Total simulations per second of ``count`` OpenSpiel MCTSBot searches (C++)."""
    import pyspiel

    game = pyspiel.load_game("gomoku", {"size": size})
    state = game.new_initial_state()
    for action in moves:
        state.apply_action(action)
    bots = [
        pyspiel.MCTSBot(
            game, pyspiel.RandomRolloutEvaluator(1, seed + k), EXPLORATION,
            simulations, 4000, False, seed + k, False,
        )
        for k in range(count)
    ]  # fmt: skip
    started = time.thread_time()
    for bot in bots:
        bot.step(state)
    return count * simulations / (time.thread_time() - started)


def has_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def measure(args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    """Interleaved rounds of every measurement; lists of samples per position."""
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in POSITIONS}
    reference = has_openspiel()
    for round_index in range(args.rounds):
        for name, (size, moves) in POSITIONS.items():
            row = samples[name]
            seed = 1000 * round_index
            rate, tree = ours_single(size, moves, args.simulations, PLAIN, seed)
            row.setdefault("ours", []).append(rate)
            row.setdefault("nodes/sim", []).append(tree.node_count / tree.simulations)
            row.setdefault("bytes/sim", []).append(
                (tree.node_count * NODE_BYTES + tree.edge_count * EDGE_BYTES)
                / tree.simulations
            )
            rate, _ = ours_single(size, moves, args.simulations, TACTICAL, seed)
            row.setdefault("ours, agent defaults", []).append(rate)
            row.setdefault("ours x64", []).append(
                ours_many(size, moves, args.many_simulations, args.searches, seed)
            )
            row.setdefault("ours x64 stepped", []).append(
                ours_stepped(size, moves, args.many_simulations, args.searches, seed)
            )
            if reference:
                row.setdefault("openspiel", []).append(
                    openspiel_rate(size, moves, args.simulations, 1, seed)
                )
                row.setdefault("openspiel x64", []).append(
                    openspiel_rate(
                        size, moves, args.many_simulations, args.searches, seed
                    )
                )
    return samples


def report(samples: dict[str, dict[str, list[float]]], searches: int) -> None:
    """Print medians and the ratios against OpenSpiel."""
    for name, row in samples.items():
        median = {key: statistics.median(values) for key, values in row.items()}
        lines = [
            ("ours, one search", median["ours"]),
            (f"ours, {searches} searches", median["ours x64"]),
            ("ours, agent defaults", median["ours, agent defaults"]),
            (f"ours, {searches} stepped, PUCT", median["ours x64 stepped"]),
        ]
        if "openspiel" in median:
            lines += [
                ("OpenSpiel C++ MCTSBot", median["openspiel"]),
                (f"OpenSpiel, {searches} bots", median["openspiel x64"]),
            ]
        print(f"{name}:")
        for label, rate in lines:
            print(f"  {label:<26}{rate:>10,.0f} sims/s")
        print(
            f"  {'tree memory':<26}{median['nodes/sim']:.2f} nodes/sim, "
            f"{median['bytes/sim']:,.0f} bytes/sim"
        )
        if "openspiel" in median:
            single = median["ours"] / median["openspiel"]
            many = median["ours x64"] / median["openspiel x64"]
            print(f"  {'ratio, one search':<26}{single:>10.1f}x  (target >= 5x)")
            print(
                f"  {f'ratio, {searches} searches':<26}{many:>10.1f}x  (target >= 5x)"
            )
    if not has_openspiel():
        print("open-spiel is not installed: no reference (pip install -e '.[bench]')")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=4000, help="per search")
    parser.add_argument("--many-simulations", type=int, default=500,
                        help="per search when many run together")  # fmt: skip
    parser.add_argument("--searches", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    run_searches([SearchTree(GameConfig(board_size=9), PLAIN)], None, 10)  # compile
    report(measure(args), args.searches)


if __name__ == "__main__":
    main()
