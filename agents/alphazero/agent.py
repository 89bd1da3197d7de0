"""AlphaZeroAgent: the shared search core guided by a trained policy-value network.

It is :class:`agents.mcts.MCTSAgent` given a
:class:`agents.alphazero.evaluator.NetworkEvaluator` (so PUCT with the network's priors
and values in place of rollouts) and its own defaults, so it shares everything else:
it plays from the PettingZoo observation alone (an env loop, the arena, the gym env's
opponent, the GUI) or from the env's board, keeps the subtree under the moves played
(tree reuse), and leaves ``last_summary`` (root visits, value, principal variation)
after each move for overlays and logs.
:meth:`AlphaZeroAgent.network_policy` gives the network's raw priors as an overlay too.

>>> import gomoku_env
>>> from agents.alphazero.agent import AlphaZeroAgent
>>> env = gomoku_env.env(board_size=9)
>>> env.reset(seed=0)
>>> agent = AlphaZeroAgent(gomoku_env.GameConfig(board_size=9), simulations=50, seed=0)
>>> observation, *_ = env.last()
>>> action = agent.act(observation)
>>> agent.last_summary.simulations
50
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np

from agents.alphazero.checkpoint import default_weights, load_network, resolve_weights
from agents.alphazero.evaluator import NetworkEvaluator, configure_threads
from agents.alphazero.network import PolicyValueNet
from agents.mcts import MCTSAgent, check_search_options
from gomoku_env.config import GameConfig

DEFAULT_SIMULATIONS = 200
"""Simulations per move when neither ``simulations`` nor ``time`` is given."""
MAX_NODES = 50_000
CACHE_SIZE = 4_096
VCF_NODES = 200
"""Solver nodes of each leaf's forced-win check (the alpha-beta agent gives its
horizon's check as many)."""


def load_weights_option(
    weights: str | os.PathLike[str] | PolicyValueNet | None, board_size: int
) -> PolicyValueNet:
    """The network a ``weights`` option names (default: bundled, for the size).

    A network trained on another board size still plays (it is fully convolutional),
    but weaker than its figures say: that is warned about, once per load.
    """
    if isinstance(weights, PolicyValueNet):
        return weights.eval()
    path = default_weights(board_size) if weights is None else resolve_weights(weights)
    network, metadata = load_network(path)
    trained = metadata.get("game", {}).get("board_size")
    if trained is not None and trained != board_size:
        warnings.warn(
            f"the AlphaZero network {Path(path).name} was trained on {trained}x{trained}"
            f" and plays {board_size}x{board_size} here: expect it to be weaker than "
            f"on its own size (weights=NAME_OR_FILE picks another)",
            stacklevel=2,
        )
    return network


class AlphaZeroAgent(MCTSAgent):
    """PUCT search with a network's priors and values; see the module docstring.

    Args:
        config: the game the agent plays.
        weights: a bundled network name (``"9x9"``), a weights file, or a
            :class:`PolicyValueNet`; default: the bundled network for the board size.
        simulations: simulations per move (``None``: only ``time`` limits, or
            :data:`DEFAULT_SIMULATIONS` when no time is given either, so
            ``time=0.5`` alone means half a second a move, as for ``MCTSAgent``).
        time: seconds per move (whichever of the two ends first).
        exploration: the PUCT exploration constant (spec option ``c``).
        leaves_per_round: leaves evaluated per network call (kept apart by virtual
            loss; spec option ``batch``).
        vcf_nodes: solver nodes of the forced-win check of each node expanded (0:
            none); the root's checks play a VCF and stop the opponent's
            (:mod:`agents.search.tactics`).
        reuse: keep the subtree under the moves played.
        temperature: 0 plays the best move; > 0 samples visits ** (1 / temperature).
        seed: seeds the search.
        device: where the network runs (``"cpu"``, ``"cuda"``).
        threads: torch CPU threads (``None``: at most 2).
    """

    def __init__(
        self,
        config: GameConfig | None = None,
        weights: str | os.PathLike[str] | PolicyValueNet | None = None,
        simulations: int | None = None,
        time: float | None = None,
        exploration: float = 1.5,
        leaves_per_round: int = 8,
        vcf_nodes: int = VCF_NODES,
        reuse: bool = True,
        temperature: float = 0.0,
        seed: int | None = None,
        device: str = "cpu",
        threads: int | None = None,
    ) -> None:
        if simulations is None and time is None:
            simulations = DEFAULT_SIMULATIONS
        # Checked before the network loads, so a bad option fails fast.
        check_search_options(simulations, time, leaves_per_round, temperature)
        config = config if config is not None else GameConfig()
        configure_threads(threads)
        self.network = load_weights_option(weights, config.board_size)
        self.network_evaluator = NetworkEvaluator(
            self.network, device, cache_size=CACHE_SIZE
        )
        super().__init__(
            config,
            self.network_evaluator,
            simulations,
            time,
            exploration=exploration,
            leaves_per_round=leaves_per_round,
            distance=0,
            vcf_nodes=vcf_nodes,
            reuse=reuse,
            temperature=temperature,
            max_nodes=MAX_NODES,
            edges_per_node=config.cells,
            seed=seed,
        )

    def network_policy(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The network's raw priors for the observed position (no search)."""
        planes = np.asarray(observation["observation"])[None]
        masks = np.asarray(observation["action_mask"])[None]
        priors, _ = self.network_evaluator.evaluate(planes, masks)
        return priors[0]
