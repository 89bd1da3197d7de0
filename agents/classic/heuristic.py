"""HeuristicAgent: one ply of pattern scoring, the classic fast Gomoku baseline."""

from __future__ import annotations

import time

import numpy as np

from agents.classic.heuristic_batch import heuristic_moves, heuristic_scores
from agents.classic.reports import SearchReport, fitted_config, position_of
from agents.patterns.point_shapes import ATTACK_WEIGHT, DEFENCE_WEIGHT
from agents.patterns.shapes import build_shape_table
from agents.patterns.values import point_values
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number
from gomoku_env.kernels import centre_point, other_color
from gomoku_env.legal import legal_from_forbidden


class HeuristicAgent:
    """Plays the point with the best pattern move score; ties broken at random.

    The move score counts what a stone makes for the mover (``attack`` times) and what
    it takes from the opponent (``defence`` times). With the default 2 and 1 the agent
    always completes its own five, otherwise blocks the opponent's, and prefers making
    an open four to blocking a three; a higher ``defence`` plays more cautiously.

    With ``noise`` above 0, that share of its moves (each drawn alone) goes to a legal
    point drawn uniformly instead: a family of weaker agents, from the heuristic
    (``noise=0``) down to ``random`` (``noise=1``), that cost no more than it does, so
    a rating scale has cheap anchors between the two.

    Args:
        config: the game; observations must match it. Without one the agent plays
            five in a row, freestyle, on the board size each observation has.
        seed: seeds the tie-breaking generator; ``reset(seed)`` reseeds.
        attack: weight of the point's value to the mover (an int >= 0).
        defence: weight of the point's value to the opponent (an int >= 0).
        noise: the share of moves played at a uniformly drawn legal point (a number
            in [0, 1]; 0: none, the generator's draws are then as without it).

    ``act`` accepts a PettingZoo observation or a :class:`gomoku_env.Board`;
    ``last_report`` describes the last move.

    >>> from gomoku_env import Board, GameConfig, parse_moves
    >>> nine = GameConfig(board_size=9)
    >>> board = Board.from_moves(parse_moves("e5 a1 f5 a2 g5 a3", 9), nine)
    >>> agent = HeuristicAgent(nine, seed=0)
    >>> agent.act(board) in (parse_moves("d5", 9)[0], parse_moves("h5", 9)[0])
    True
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        seed: int | None = None,
        attack: int = ATTACK_WEIGHT,
        defence: int = DEFENCE_WEIGHT,
        noise: float = 0.0,
    ) -> None:
        self.config = config if config is not None else GameConfig()
        self._any_size = config is None  # no game given: fit the board it is shown
        self.attack = check_number("attack", attack, minimum=0, integer=True)
        self.defence = check_number("defence", defence, minimum=0, integer=True)
        self.noise = float(check_number("noise", noise, minimum=0, maximum=1))
        self._rng = np.random.default_rng(seed)
        self._table = build_shape_table(self.config.win_length)
        self.last_report: SearchReport | None = None

    def reset(self, seed: int | None = None) -> None:
        """Forget the last report; reseed when ``seed`` is given."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.last_report = None

    def scores(self, board: Board) -> np.ndarray:
        """The move score of every point for the side to move (-1 on stones and, under
        renju, on black's forbidden points)."""
        config = self.config
        own = np.empty(config.cells, dtype=np.int64)
        opponent = np.empty(config.cells, dtype=np.int64)
        mover = board.to_move
        for color, out in ((mover, own), (other_color(mover), opponent)):
            point_values(
                board.cells, config.board_size, config.win_length, config.rule.code,
                color, self._table, out,
            )  # fmt: skip
        scores = self.attack * own + self.defence * opponent
        legal = np.empty(config.cells, dtype=np.int8)
        legal_from_forbidden(board.cells, board.forbidden_mask(), legal)
        scores[legal == 0] = -1
        return scores

    def act(self, observation: dict[str, np.ndarray] | Board) -> int:
        """The best-scoring legal point for the position."""
        start = time.perf_counter()
        if self._any_size:
            self.config = fitted_config(observation, self.config)
        board = position_of(observation, self.config)
        if not board.moves:
            move, score, reason = centre_point(self.config.board_size), 0, "opening"
        else:
            scores = self.scores(board)
            noisy = self.noise > 0 and self._rng.random() < self.noise
            least, reason = (0, "noise") if noisy else (scores.max(), "pattern")
            move = int(self._rng.choice(np.flatnonzero(scores >= least)))
            score = int(scores[move])
        self.last_report = SearchReport(
            move=move, score=score, principal_variation=(move,),
            nodes=self.config.cells - len(board.moves), depth=1, reason=reason,
            elapsed=time.perf_counter() - start,
        )  # fmt: skip
        return move

    def act_batch(
        self, planes: np.ndarray, masks: np.ndarray, games: np.ndarray
    ) -> np.ndarray:
        """The moves for a batch of positions in one compiled call (the vector env's
        :class:`~gomoku_env.opponents.BatchOpponent` seam): ``planes`` (games, N, N, 5)
        channels-last observations, ``masks`` their legal masks, ``games`` their slot
        numbers (unused).

        Each move is one ``act`` could choose: the same when the best point is unique;
        among tied points one drawn uniformly with this agent's generator (one draw per
        game), which is not the point ``act`` would draw. With ``noise``, one more
        draw per game decides whether its move is a random one.
        """
        planes = self._checked_planes(planes)
        self.last_report = None
        games = planes.shape[0]
        noise_draws = self._rng.random(games) if self.noise > 0 else np.ones(games)
        return heuristic_moves(
            planes, self.config.board_size, self.config.win_length,
            self.config.rule.code, self._table, self._weights(),
            self._rng.random(games), self.noise, noise_draws,
        )  # fmt: skip

    def scores_batch(self, planes: np.ndarray) -> np.ndarray:
        """:meth:`scores` for a batch of channels-last observation ``planes`` (games,
        N, N, 5), in one compiled call: (games, N*N) int64, -1 where no stone may go
        (an empty board scores only its centre). The points of a row's top score are
        the moves :meth:`act_batch` chooses among."""
        return heuristic_scores(
            self._checked_planes(planes), self.config.board_size,
            self.config.win_length, self.config.rule.code, self._table,
            self._weights(),
        )  # fmt: skip

    def _weights(self) -> np.ndarray:
        return np.array([self.attack, self.defence], dtype=np.int64)

    def _checked_planes(self, planes: np.ndarray) -> np.ndarray:
        """``planes`` as contiguous int8, if they are a batch of this board's."""
        size = self.config.board_size
        planes = np.asarray(planes)
        if planes.ndim != 4 or planes.shape[1:3] != (size, size):
            raise ValueError(
                f"planes of shape {planes.shape} are not (games, {size}, {size}, "
                "planes) observations of this agent's board"
            )
        return np.ascontiguousarray(planes, dtype=np.int8)
