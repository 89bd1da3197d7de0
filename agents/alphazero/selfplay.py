"""Batched self-play: many games stepped together, one network call per round.

Every game owns a search tree of the shared search core. Each round, every unfinished
search gathers a few leaves (kept apart by virtual loss), all the leaves of all the
games go to the network in ONE call, and each tree backs up its own rows: the search
core's one driver, :func:`agents.search.run_searches`, run until the first search is
done. A game whose search has used its budget plays its move at once and starts the
next search from the kept subtree, so the batch stays full while games are at
different moves.

Playout-cap randomisation (as in KataGo): a move gets the full search (the config's
``full_search`` :class:`~agents.budget.Budget`), with Dirichlet noise at the root and a
training sample recorded, with probability ``full_search_probability``; other moves get
a cheap search (``fast_search``) that only moves the game on. A budget's simulations
become the tree's stop as the agents' do (:func:`agents.search.search_target`). The
first ``temperature_moves`` moves are sampled in proportion to the visits, for variety;
later ones take the search's best move.

With ``gumbel_actions`` (a Gumbel root, :mod:`agents.search.sequential_halving`) a
full search is sequential halving at the root: its sample's policy is the improved
policy and its move the halving's choice (drawn through the Gumbel noise, at every
move of the game); the fast searches stay PUCT, without root noise.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from agents.alphazero.replay import Batch
from agents.alphazero.training_config import SelfPlayConfig
from agents.search import (
    Evaluator,
    SearchOptions,
    SearchTree,
    run_searches,
    search_target,
)
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.kernels import BLACK, EMPTY, other_color
from gomoku_env.planes import PLANE_COUNT, ObservationPlanes

TREE_SEARCHES = 4


@dataclass
class SelfPlayResult:
    """Samples from finished games, plus counts for the throughput figures."""

    samples: Batch
    games: int
    moves: int
    simulations: int
    black_wins: int = 0
    draws: int = 0
    unfinished: int = 0
    worker_cpu_seconds: float = 0.0
    """CPU time spent in processes other than the learner's (self-play workers), which
    the learner's own CPU clock does not see."""


@dataclass
class _Game:
    """One game in progress and the samples it has recorded so far."""

    board: Board
    planes: ObservationPlanes
    tree: SearchTree
    target: int = 0  # the tree's simulation count at which this move's search stops
    full_search: bool = False
    winner: int | None = None  # the proven winner of a game ended before its end
    sample_planes: list[np.ndarray] = field(default_factory=list)
    sample_policy: list[np.ndarray] = field(default_factory=list)
    sample_colors: list[int] = field(default_factory=list)


def search_options(config: SelfPlayConfig) -> SearchOptions:
    """The config's search options (PUCT with root noise by default), with a tree
    sized for one move's search plus reuse.

    A move adds at most its budget's simulations in nodes (the full search's the most)
    and the kept subtree is smaller than the tree it came from, so a few searches'
    worth of nodes is plenty; a full tree stops growing (it still searches), it never
    fails. A Gumbel root (``gumbel_actions``) explores by its own noise: no Dirichlet.
    """
    max_nodes = TREE_SEARCHES * config.full_search.simulations + 2
    options = replace(config.search, max_nodes=max_nodes).for_evaluator(True)
    if config.gumbel_actions:
        options = replace(options, dirichlet_fraction=0.0)
    return options


class SelfPlay:
    """Plays batches of self-play games with one evaluator.

    Args:
        game: the rules of the games.
        config: self-play settings.
        seed: seeds the trees and the move sampling.
    """

    def __init__(self, game: GameConfig, config: SelfPlayConfig, seed: int = 0) -> None:
        self.game = game
        self.config = config
        self._rng = np.random.default_rng(seed)
        self._search_options = search_options(config)
        self._trees = [
            SearchTree(game, self._search_options, seed=int(self._rng.integers(2**31)))
            for _ in range(config.parallel_games)
        ]

    def play(
        self,
        evaluator: Evaluator,
        games: int | None = None,
        deadline: float | None = None,
    ) -> SelfPlayResult:
        """Play ``games`` games (default: one per parallel slot) to the end.

        With a ``deadline`` (a :func:`time.monotonic` value) play stops at the first
        round that ends after it: the games not finished by then are dropped (their
        number is ``unfinished`` in the result), so a time budget is kept.
        """
        games = self.config.parallel_games if games is None else games
        active = [self._new_game(tree) for tree in self._trees[:games]]
        started = len(active)
        finished: list[_Game] = []
        simulations = moves = 0
        while active:
            simulations += sum(
                run_searches(
                    [g.tree for g in active],
                    evaluator,
                    [g.target - g.tree.simulations for g in active],
                    _seconds_left(deadline),
                    until_first=True,
                )
            )
            for game in list(active):
                if game.tree.simulations < game.target and not game.tree.is_solved:
                    continue
                moves += 1
                if not self._play_move(game):
                    continue
                active.remove(game)
                finished.append(game)
                if started < games:
                    active.append(self._new_game(game.tree))
                    started += 1
            if deadline is not None and active and time.monotonic() > deadline:
                break
        result = self._result(finished, moves, simulations)
        result.unfinished = len(active) + games - started
        return result

    def _new_game(self, tree: SearchTree) -> _Game:
        board = Board(self.game)
        tree.reset(board)
        game = _Game(board, ObservationPlanes(self.game.board_size), tree)
        self._start_search(game)
        return game

    def _start_search(self, game: _Game) -> None:
        game.full_search = bool(
            self._rng.random() < self.config.full_search_probability
        )
        budget = (
            self.config.full_search if game.full_search else self.config.fast_search
        )
        game.target = search_target(game.tree, budget.simulations)
        if game.full_search and self.config.gumbel_actions:
            game.tree.halve_root(budget.simulations, self.config.gumbel_actions)

    def _play_move(self, game: _Game) -> bool:
        """Record a sample if due, play the chosen move; True when the game is over,
        or decided: a root proven won or lost ends the game with that result."""
        board, tree = game.board, game.tree
        halving = tree.halving
        if game.full_search:
            game.sample_planes.append(game.planes.view(board.to_move))
            game.sample_policy.append(
                tree.visit_distribution(temperature=1.0)
                if halving is None
                else halving.improved_policy(self.game.cells)
            )
            game.sample_colors.append(board.to_move)
        if tree.is_solved and abs(tree.root_value()) == 1.0:
            won = tree.root_value() > 0
            game.winner = board.to_move if won else other_color(board.to_move)
            return True
        if halving is not None and not tree.is_solved:
            action = halving.chosen_move()
        else:
            action = self._choose(tree, len(board.moves))
        previous, color = board.last_move, board.to_move
        board.play(action)
        game.planes.place(action, color, previous)
        if board.is_over:
            return True
        tree.advance(action)
        self._start_search(game)
        return False

    def _choose(self, tree: SearchTree, move_number: int) -> int:
        if move_number >= self.config.temperature_moves or tree.is_solved:
            return tree.best_action()
        distribution = tree.visit_distribution(temperature=1.0).astype(np.float64)
        return int(
            self._rng.choice(distribution.size, p=distribution / distribution.sum())
        )

    def _result(
        self, finished: list[_Game], moves: int, simulations: int
    ) -> SelfPlayResult:
        planes, policy, values = [], [], []
        black_wins = draws = 0
        for game in finished:
            winner = game.board.winner if game.winner is None else game.winner
            black_wins += winner == BLACK
            draws += winner == EMPTY
            planes.extend(game.sample_planes)
            policy.extend(game.sample_policy)
            values.extend(
                0.0 if winner == EMPTY else (1.0 if color == winner else -1.0)
                for color in game.sample_colors
            )
        size = self.game.board_size
        samples = Batch(
            np.array(planes, dtype=np.int8).reshape(-1, size, size, PLANE_COUNT),
            np.array(policy, dtype=np.float32).reshape(-1, self.game.cells),
            np.array(values, dtype=np.float32),
        )
        return SelfPlayResult(
            samples, len(finished), moves, simulations, black_wins, draws
        )


def _seconds_left(deadline: float | None) -> float | None:
    """Seconds to a :func:`time.monotonic` deadline (0 once past: one more round)."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.0)


def play_games(
    evaluator: Evaluator,
    game: GameConfig,
    config: SelfPlayConfig,
    rng: np.random.Generator,
    deadline: float | None = None,
) -> SelfPlayResult:
    """One batch of ``config.parallel_games`` games, from a fresh :class:`SelfPlay`,
    cut at ``deadline`` (see :meth:`SelfPlay.play`)."""
    return SelfPlay(game, config, seed=int(rng.integers(2**31))).play(
        evaluator, deadline=deadline
    )
