"""AlphaZeroAgent: the shared search core guided by a trained policy-value network.

The agent plays from the PettingZoo observation alone, so it works in an env loop, in
the arena, as the gym env's opponent and in the GUI. It keeps its search tree between
moves: when the new position is the old root plus the opponent's reply, the subtree
under that reply is reused. After each move, :meth:`AlphaZeroAgent.policy` holds the
root's visit distribution (for overlays), with :meth:`root_value` and
:meth:`principal_variation`.
"""

from __future__ import annotations

import os

import numpy as np

from agents.alphazero.checkpoint import load_network
from agents.alphazero.evaluator import NetworkEvaluator, configure_threads
from agents.alphazero.network import PolicyValueNet
from agents.alphazero.weights import default_weights, resolve_weights
from agents.search import SearchConfig, SearchTree
from gomoku_env.board import Board
from gomoku_env.config import GameConfig
from gomoku_env.position import board_from_observation


def _check_budget(simulations: int | None, time: float | None) -> None:
    if simulations is None and time is None:
        raise ValueError("give simulations, time or both")
    if simulations is not None and (
        isinstance(simulations, bool)
        or not isinstance(simulations, int)
        or simulations < 1
    ):
        raise ValueError(f"simulations must be an int >= 1, got {simulations!r}")
    if time is not None and (
        isinstance(time, bool) or not isinstance(time, (int, float)) or time <= 0
    ):
        raise ValueError(f"time must be a number of seconds > 0, got {time!r}")


class AlphaZeroAgent:
    """PUCT search with a network's priors and values; see the module docstring.

    Args:
        config: the game the agent plays.
        weights: a bundled network name (``"9x9"``), a weights file, or a
            :class:`PolicyValueNet`; default: the bundled network for the board size.
        simulations: simulations per move (``None``: only ``time`` limits).
        time: seconds per move (whichever of the two ends first).
        exploration: the PUCT constant.
        leaves_per_round: leaves evaluated per network call (virtual loss between).
        reuse_tree: keep the subtree of the moves actually played.
        seed: seeds the search.
        device: where the network runs.
        threads: torch CPU threads (``None``: at most 2).
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        weights: str | os.PathLike[str] | PolicyValueNet | None = None,
        simulations: int | None = 200,
        time: float | None = None,
        exploration: float = 1.5,
        leaves_per_round: int = 8,
        reuse_tree: bool = True,
        seed: int | None = None,
        device: str = "cpu",
        threads: int | None = None,
    ) -> None:
        self.config = config if config is not None else GameConfig()
        _check_budget(simulations, time)
        self.simulations, self.time = simulations, time
        self.leaves_per_round = leaves_per_round
        self.reuse_tree = reuse_tree
        configure_threads(threads)
        self.network = self._load(weights)
        self.evaluator = NetworkEvaluator(self.network, device, cache_size=4096)
        search = SearchConfig(formula="puct", exploration=exploration)
        self.tree = SearchTree(self.config, search, seed=seed)
        self._root_cells: np.ndarray | None = None
        self._policy = np.zeros(self.config.cells, dtype=np.float32)
        self._value = 0.0
        self._variation: list[int] = []

    def _load(
        self, weights: str | os.PathLike[str] | PolicyValueNet | None
    ) -> PolicyValueNet:
        if isinstance(weights, PolicyValueNet):
            return weights.eval()
        path = default_weights(self.config.board_size) if weights is None else None
        network, _ = load_network(path or resolve_weights(weights))
        return network

    def reset(self, seed: int | None = None) -> None:
        """Forget the previous game's tree; reseed the search when ``seed`` is given."""
        self._root_cells = None
        if seed is not None:
            self.tree.reseed(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """Search the observed position and return the most visited move."""
        board = board_from_observation(observation, self.config)
        self._move_root(board)
        self.tree.run(
            simulations=self.simulations,
            time_limit=self.time,
            evaluator=self.evaluator,
            batch=self.leaves_per_round,
        )
        action = self.tree.best_action()
        self._policy = self.tree.visit_distribution(temperature=1.0)
        self._value = self.tree.root_value()
        self._variation = self.tree.principal_variation()
        board.play(action)
        if self.reuse_tree and not board.is_over:
            self.tree.advance(action)
            self._root_cells = board.cells.copy()
        else:
            self._root_cells = None
        return action

    def _move_root(self, board: Board) -> None:
        """Reuse the tree when ``board`` is the kept root plus one opponent stone."""
        if self._root_cells is not None:
            changed = np.flatnonzero(board.cells != self._root_cells)
            if changed.size == 1 and self._root_cells[changed[0]] == 0:
                self.tree.advance(int(changed[0]))
                return
        self.tree.reset(board)

    def policy(self) -> np.ndarray:
        """The last search's root visit distribution over cells (for overlays)."""
        return self._policy.copy()

    def root_value(self) -> float:
        """The last search's value of its position for the agent, in [-1, 1]."""
        return self._value

    def principal_variation(self) -> list[int]:
        """The last search's expected line, starting with the move the agent played."""
        return list(self._variation)

    def network_policy(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The network's raw priors for the observed position (no search)."""
        planes = np.asarray(observation["observation"])[None]
        masks = np.asarray(observation["action_mask"])[None]
        priors, _ = self.evaluator.evaluate(planes, masks)
        return priors[0]
