"""AlphaZeroAgent: the shared search core guided by a trained policy-value network.

It is :class:`agents.search.mcts.MCTSAgent` given a
:class:`agents.alphazero.evaluator.NetworkEvaluator` (so PUCT with the network's priors
and values in place of rollouts) and its own defaults (:data:`agents.search.ALPHAZERO_PRESET`,
and :data:`agents.budget.ALPHAZERO_BUDGET` unless the network has its own,
:data:`NETWORK_BUDGETS`), so it shares everything else:
it plays from the PettingZoo observation alone (an env loop, the arena, the gym env's
opponent, the GUI) or from the env's board, keeps the subtree under the moves played
(tree reuse), and leaves ``last_summary`` (root visits, value, principal variation)
after each move for overlays and logs.
:meth:`AlphaZeroAgent.network_policy` gives the network's raw priors as an overlay too.

>>> import gomoku_env
>>> from agents.alphazero.agent import AlphaZeroAgent
>>> env = gomoku_env.env(board_size=9)
>>> env.reset(seed=0)
>>> from agents.budget import ALPHAZERO_BUDGET, Budget
>>> game = gomoku_env.GameConfig(board_size=9)
>>> agent = AlphaZeroAgent(game, budget=Budget(simulations=50), seed=0)
>>> observation, *_ = env.last()
>>> action = agent.act(observation)
>>> agent.last_summary.simulations
50
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from agents.alphazero.checkpoint import (
    WEIGHTS_DIR,
    default_weights,
    load_network,
    resolve_weights,
)
from agents.alphazero.evaluator import NetworkEvaluator, configure_threads
from agents.alphazero.network import PolicyValueNet
from agents.base import warn_if_other_rules
from agents.budget import ALPHAZERO_BUDGET, TREE_SEARCH_LIMITS, Budget
from agents.search import ALPHAZERO_PRESET, SearchOptions
from agents.search.mcts import MCTSAgent
from gomoku_env.config import GameConfig

CACHE_SIZE = 4_096
NETWORK_BUDGETS = {"15x15-gumbel": Budget(simulations=400)}
"""Bundled networks whose default budget is not :data:`ALPHAZERO_BUDGET`, each chosen by
measurement: ``15x15-gumbel`` at 400 simulations beats itself at 200, which beats it at
100 (docs/alphazero.md, "Continued on the CPU with a Gumbel root")."""

Weights = str | os.PathLike[str] | PolicyValueNet | None
"""What a ``weights`` option may be: a bundled name, a file, a network, or None."""


def weights_file(weights: Weights, config: GameConfig) -> Path | None:
    """The file a ``weights`` option names (None: the bundled one for the board size),
    or None for a network given as an object."""
    if isinstance(weights, PolicyValueNet):
        return None
    if weights is None:
        return default_weights(config.board_size)
    return resolve_weights(weights)


def load_weights_option(weights: Weights, config: GameConfig) -> PolicyValueNet:
    """The network a ``weights`` option names (default: bundled, for the size).

    A network trained on another board size, win length or rule still plays (it is
    fully convolutional), but weaker than its figures say: that is warned about, once
    per load (:func:`agents.base.warn_if_other_rules`).
    """
    path = weights_file(weights, config)
    if path is None:
        return weights.eval()
    network, metadata = load_network(path)
    trained = metadata.get("game", {})
    warn_if_other_rules(f"the AlphaZero network {Path(path).name}", trained, config)
    return network


def default_budget(weights: Weights, config: GameConfig) -> Budget:
    """The budget an agent plays these weights at when given none: a bundled network's
    own (:data:`NETWORK_BUDGETS`), else :data:`ALPHAZERO_BUDGET`."""
    path = weights_file(weights, config)
    if path is None or path.resolve().parent != WEIGHTS_DIR.resolve():
        return ALPHAZERO_BUDGET
    return NETWORK_BUDGETS.get(path.stem, ALPHAZERO_BUDGET)


class AlphaZeroAgent(MCTSAgent):
    """PUCT search with a network's priors and values; see the module docstring.

    Args:
        config: the game the agent plays.
        weights: a bundled network name (``"8x8"``, ``"9x9"``, ``"15x15"``,
            ``"15x15-gumbel"``), a weights file, or a :class:`PolicyValueNet`;
            default: the bundled network for the board size
            (:data:`agents.alphazero.checkpoint.DEFAULT_FOR_SIZE`).
        budget: simulations and/or seconds a move (whichever ends first); default:
            the network's own (:func:`default_budget`).
        search: the search's knobs (:data:`agents.search.ALPHAZERO_PRESET` when
            None).
        device: where the network runs (``"cpu"``, ``"cuda"``).
        threads: torch CPU threads. 1 unless told otherwise: a search's batches
            are small, and two threads of a process that shares the cores (two
            games at once on two cores, a busy machine) left a clock-limited search
            one simulation a move. ``None``: at most 2, within ``OMP_NUM_THREADS``.
        **options: :class:`MCTSAgent`'s own keywords (``reuse``, ``temperature``,
            ``seed``).
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        weights: Weights = None,
        budget: Budget | None = None,
        search: SearchOptions | None = None,
        device: str = "cpu",
        threads: int | None = 1,
        **options: Any,
    ) -> None:
        # Checked before the network loads, so a bad budget fails fast.
        if isinstance(budget, Budget):
            budget.refuse(type(self).__name__, TREE_SEARCH_LIMITS)
        config = config if config is not None else GameConfig()
        configure_threads(threads)
        self.network = load_weights_option(weights, config)
        budget = budget if budget is not None else default_budget(weights, config)
        self.network_evaluator = NetworkEvaluator(
            self.network, device, cache_size=CACHE_SIZE
        )
        search = search if search is not None else ALPHAZERO_PRESET
        super().__init__(config, self.network_evaluator, budget, search, **options)

    def reset(self, seed: int | None = None) -> None:
        """Forget the game, its tree and the network's cached outputs (so that a game
        plays the same moves for the same seed whichever process plays it, after
        whichever games); reseed when ``seed`` is given."""
        super().reset(seed)
        self.network_evaluator.forget()

    def network_policy(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The network's raw priors for the observed position (no search)."""
        planes = np.asarray(observation["observation"])[None]
        masks = np.asarray(observation["action_mask"])[None]
        priors, _ = self.network_evaluator.evaluate(planes, masks)
        return priors[0]
