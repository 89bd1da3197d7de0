"""Teacher games: start a network from what the heuristic already knows, then self-play.

A network that starts from random weights spends its first hours learning that five in
a row wins and that an open four must be blocked: knowledge the pattern heuristic has
for free. Distillation gives it that knowledge in minutes. Many games are played by
the batched heuristic (one compiled call moves every game), with some random moves for
variety; every position becomes a sample whose policy target is the heuristic's move
and whose value target is the game's result for the side to move. The network learns
those samples before the first self-play game, and self-play improves on it from there.

Games are cheap (microseconds a move), so the cost is the gradient steps. A stronger
teacher is one option away: with ``depth`` the alpha-beta agent (with its VCF checks)
labels the same positions, on every core (its compiled search releases the GIL).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from agents.alphazero.learner import Learner, LossTerms
from agents.alphazero.replay import Batch, ReplayBuffer
from agents.alphazero.training_config import DistillationConfig
from agents.classic.alphabeta import AlphaBetaAgent
from agents.classic.heuristic import HeuristicAgent
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.game_state import GameState
from gomoku_env.kernels import BLACK, EMPTY
from gomoku_env.planes import PLANE_COUNT


@dataclass(frozen=True)
class TeacherSamples:
    """The samples of a batch of teacher games, with counts for the logs."""

    samples: Batch
    games: int
    black_wins: int
    draws: int


NEARBY_REACH = 2
LABEL_TABLE_BITS = 16
"""Transposition-table size of a labelling search (a fresh table per position)."""


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


def teacher_games(
    game: GameConfig,
    games: int,
    config: DistillationConfig,
    rng: np.random.Generator,
    parallel: int = 256,
) -> TeacherSamples:
    """Play ``games`` heuristic games, ``parallel`` at a time, and label every position.

    The policy target of a position is the heuristic's move there (one-hot; its ties
    are broken at random), or with ``config.depth`` the alpha-beta search's
    (:func:`search_labels`), also where a random move was played instead; the value
    target is the final result for the side to move (+1 win, -1 loss, 0 draw).
    """
    teacher = HeuristicAgent(game, seed=int(rng.integers(2**31)))
    size = game.board_size
    planes_out: list[np.ndarray] = []
    masks_out: list[np.ndarray] = []
    policy_out: list[int] = []
    value_out: list[float] = []
    black_wins = draws = 0
    started = 0
    while started < games:
        count = min(parallel, games - started)
        started += count
        states = [GameState(game) for _ in range(count)]
        records: list[list[tuple[np.ndarray, int, int]]] = [[] for _ in range(count)]
        active = list(range(count))
        while active:
            movers = [states[i].board.to_move for i in active]
            observed = np.stack(
                [
                    states[i].observation(to_move)
                    for i, to_move in zip(active, movers, strict=True)
                ]
            )
            masks = np.stack([states[i].legal_mask() for i in active])
            moves = teacher.act_batch(observed, masks, np.asarray(active))
            still_active = []
            for row, index in enumerate(active):
                state = states[index]
                target = int(moves[row])
                records[index].append((observed[row], masks[row], target, movers[row]))
                action = target
                opening = len(state.board.moves) < config.opening_moves
                if opening or rng.random() < config.random_move_probability:
                    action = _nearby_point(state.board, rng)
                state.play(action)
                if not state.over:
                    still_active.append(index)
            active = still_active
        boards = [state.board for state in states]
        for board, record in zip(boards, records, strict=True):
            winner = board.winner
            black_wins += winner == BLACK
            draws += winner == EMPTY
            for observed, mask, target, color in record:
                planes_out.append(observed)
                masks_out.append(mask)
                policy_out.append(target)
                value_out.append(
                    0.0 if winner == EMPTY else (1.0 if color == winner else -1.0)
                )
    if config.depth > 0 and planes_out:
        policy_out = search_labels(
            game, np.stack(planes_out), np.stack(masks_out), config.depth, rng
        ).tolist()
    policy = np.zeros((len(policy_out), game.cells), dtype=np.float32)
    policy[np.arange(len(policy_out)), policy_out] = 1.0
    samples = Batch(
        np.array(planes_out, dtype=np.int8).reshape(-1, size, size, PLANE_COUNT),
        policy,
        np.array(value_out, dtype=np.float32),
    )
    return TeacherSamples(samples, games, int(black_wins), int(draws))


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


def distil(
    learner: Learner,
    game: GameConfig,
    config: DistillationConfig,
    batch_size: int,
    rng: np.random.Generator,
) -> tuple[TeacherSamples, list[LossTerms]]:
    """Teach ``learner``'s network the heuristic: play the games, take the steps.

    Returns the teacher samples' counts and the loss of every step (the first and last
    show how much was learned).
    """
    taught = teacher_games(game, config.games, config, rng)
    samples = taught.samples
    buffer = ReplayBuffer(game.board_size, max(1, len(samples.value)))
    buffer.add(samples.planes, samples.policy, samples.value)
    losses = [learner.step(buffer.sample(batch_size, rng)) for _ in range(config.steps)]
    return taught, losses
