"""Teacher games: positions labelled by the heuristic (or alpha-beta) for a new network.

Both training routes start a network from what the classic agents already know, from
the same games: AlphaZero distils them before self-play
(:mod:`agents.alphazero.distillation`), PPO warm-starts on them before playing the
heuristic (:mod:`agents.ppo.warm_start`).

A network that starts from random weights spends its first hours learning that five in
a row wins and that an open four must be blocked: knowledge the pattern heuristic has
for free. Many games are played by the batched heuristic against itself (one compiled
call moves every game), with some random moves for variety; every position is kept
with the heuristic's move there, its best points (every point of its top score: it
plays one of them at random) and the game's result for the side to move.

Games are cheap (microseconds a move), so the cost is the learning. A stronger teacher
is one option away: with ``depth`` the alpha-beta agent (with its VCF checks) labels the
same positions, on every core (its compiled search releases the GIL).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from agents.classic.alphabeta import AlphaBetaAgent
from agents.classic.heuristic import HeuristicAgent
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_fields, option
from gomoku_env.game_state import GameState
from gomoku_env.kernels import BLACK, EMPTY
from gomoku_env.planes import PLANE_COUNT

NEARBY_REACH = 2
LABEL_TABLE_BITS = 16
"""Transposition-table size of a labelling search (a fresh table per position)."""
PARALLEL_GAMES = 256
"""Teacher games stepped together (one compiled heuristic call moves them all)."""


@dataclass(frozen=True)
class TeacherGamesConfig:
    """The teacher games of a new network (both training routes, ``--teacher-*``)."""

    games: int = option(
        0,
        help="heuristic games played for the network to learn from first (0: none)",
        minimum=0,
        flag="teacher",
    )
    random_move_probability: float = option(
        0.1,
        help=(
            "chance that a move after the opening is a random legal point next to the"
            " stones instead of the heuristic's, so the samples cover positions the "
            "heuristic would never reach by itself"
        ),
        minimum=0,
        maximum=1,
        flag="teacher",
    )
    opening_moves: int = option(
        4,
        help=(
            "moves at the start of each game chosen at random among the points near "
            "the stones (near the centre on an empty board)"
        ),
        minimum=0,
        flag="teacher",
    )
    depth: int = option(
        0,
        help=(
            "0: the heuristic labels each position; d > 0: an alpha-beta search of "
            "depth d (with its forced-win checks, so it finds and stops VCFs) labels "
            "every position instead: a stronger teacher, about 10 ms a position at "
            "depth 3 on 15x15, spread over the CPU's cores"
        ),
        minimum=0,
        maximum=8,
        flag="teacher",
    )

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class TeacherPositions:
    """Every position of a set of teacher games, with counts for the logs.

    ``planes`` (n, N, N, 5) int8 observations of the side to move, ``masks`` (n, N*N)
    their legal points, ``labels`` (n,) the teacher's move (the heuristic's, or the
    search's with ``depth``), ``best`` (n, N*N) bool the teacher's best points (the
    heuristic's top score, or the search's move alone), ``values`` (n,) the game's
    result for the side to move (+1 win, -1 loss, 0 draw).
    """

    planes: np.ndarray
    masks: np.ndarray
    labels: np.ndarray
    best: np.ndarray
    values: np.ndarray
    games: int
    black_wins: int
    draws: int


@dataclass
class _Record:
    """What the games played so far left: one entry per position."""

    planes: list[np.ndarray]
    masks: list[np.ndarray]
    labels: list[int]
    best: list[np.ndarray]
    values: list[float]
    black_wins: int = 0
    draws: int = 0


def teacher_games(
    game: GameConfig,
    config: TeacherGamesConfig,
    rng: np.random.Generator,
    parallel: int = PARALLEL_GAMES,
) -> TeacherPositions:
    """Play ``config.games`` heuristic games, ``parallel`` at a time, and label every
    position.

    The label of a position is the heuristic's move there (its ties are broken at
    random), or with ``config.depth`` the alpha-beta search's (:func:`search_labels`),
    also where a random move was played instead.
    """
    teacher = HeuristicAgent(game, seed=int(rng.integers(2**31)))
    record = _Record([], [], [], [], [])
    started = 0
    while started < config.games:
        count = min(parallel, config.games - started)
        started += count
        _play_batch(teacher, game, count, config, rng, record)
    labels = np.array(record.labels, dtype=np.int64)
    masks = np.array(record.masks).reshape(-1, game.cells)
    best = np.array(record.best, dtype=bool).reshape(-1, game.cells)
    planes = np.array(record.planes, dtype=np.int8)
    planes = planes.reshape(-1, game.board_size, game.board_size, PLANE_COUNT)
    if config.depth > 0 and len(labels):
        labels = search_labels(game, planes, masks, config.depth, rng)
        best = np.zeros_like(best)
        best[np.arange(len(labels)), labels] = True
    values = np.array(record.values, dtype=np.float32)
    return TeacherPositions(
        planes, masks, labels, best, values, config.games, record.black_wins,
        record.draws,
    )  # fmt: skip


def _play_batch(
    teacher: HeuristicAgent,
    game: GameConfig,
    count: int,
    config: TeacherGamesConfig,
    rng: np.random.Generator,
    record: _Record,
) -> None:
    """Play ``count`` games to their end and add their positions to ``record``."""
    states = [GameState(game) for _ in range(count)]
    played: list[list[tuple[np.ndarray, np.ndarray, int, np.ndarray, int]]] = [
        [] for _ in range(count)
    ]
    active = list(range(count))
    while active:
        movers = [states[i].board.to_move for i in active]
        observed = np.stack(
            [
                states[i].observation(mover)
                for i, mover in zip(active, movers, strict=True)
            ]
        )
        masks = np.stack([states[i].legal_mask() for i in active])
        scores = teacher.scores_batch(observed)
        best = scores == scores.max(axis=1, keepdims=True)
        moves = teacher.act_batch(observed, masks, np.asarray(active))
        still_active = []
        for row, index in enumerate(active):
            state = states[index]
            target = int(moves[row])
            played[index].append(
                (observed[row], masks[row], target, best[row], movers[row])
            )
            action = target
            opening = len(state.board.moves) < config.opening_moves
            if opening or rng.random() < config.random_move_probability:
                action = _nearby_point(state.board, rng)
            state.play(action)
            if not state.over:
                still_active.append(index)
        active = still_active
    for state, positions in zip(states, played, strict=True):
        _add_game(record, state.board.winner, positions)


def _add_game(
    record: _Record,
    winner: int,
    positions: list[tuple[np.ndarray, np.ndarray, int, np.ndarray, int]],
) -> None:
    """Add one finished game's positions, each valued for its side to move."""
    record.black_wins += winner == BLACK
    record.draws += winner == EMPTY
    for observed, mask, target, best, color in positions:
        record.planes.append(observed)
        record.masks.append(mask)
        record.labels.append(target)
        record.best.append(best)
        record.values.append(
            0.0 if winner == EMPTY else (1.0 if color == winner else -1.0)
        )


def _within_reach(stones: np.ndarray, reach: int) -> np.ndarray:
    """The points at most ``reach`` lines (in both directions) from a ``True`` point."""
    size = stones.shape[0]
    padded = np.pad(stones, reach)
    near = np.zeros_like(stones)
    for row_shift in range(2 * reach + 1):
        for column_shift in range(2 * reach + 1):
            near |= padded[
                row_shift : row_shift + size, column_shift : column_shift + size
            ]
    return near


def _nearby_point(board: Board, rng: np.random.Generator) -> int:
    """A random legal point within two lines of a stone (around the centre if none)."""
    size = board.config.board_size
    legal = board.legal_mask().reshape(size, size).astype(bool)
    stones = board.grid != EMPTY
    if not stones.any():
        stones = np.zeros_like(stones)
        stones[size // 2, size // 2] = True
    candidates = np.flatnonzero(_within_reach(stones, NEARBY_REACH) & legal)
    if candidates.size == 0:
        candidates = np.flatnonzero(legal)
    return int(rng.choice(candidates))


def search_labels(
    game: GameConfig,
    planes: np.ndarray,
    masks: np.ndarray,
    depth: int,
    rng: np.random.Generator,
    workers: int | None = None,
) -> np.ndarray:
    """The alpha-beta agent's move (``depth`` plies, no clock) for each observed
    position (``planes`` (N, H, W, C), ``masks`` (N, H*W)), on ``workers`` threads
    (default: one per CPU). Each position has its own seed and a fresh search, so the
    labels depend on neither the machine nor the number of workers."""
    workers = workers or os.cpu_count() or 1
    seeds = rng.integers(2**31, size=len(planes))
    labels = np.empty(len(planes), dtype=np.int64)

    def label(worker: int) -> None:
        agent = AlphaBetaAgent(
            game, budget=None, depth=depth, table_bits=LABEL_TABLE_BITS
        )
        for index in range(worker, len(planes), workers):
            agent.reset(int(seeds[index]))
            observation = {"observation": planes[index], "action_mask": masks[index]}
            labels[index] = agent.act(observation)

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(label, range(workers)))
    return labels
