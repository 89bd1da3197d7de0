"""The ``ppo`` agent: a policy network trained by the PPO recipe, played greedily.

``weights`` names a shipped policy (``"9x9"``, the file ``agents/ppo/weights/9x9.pt``)
or a ``policy.pt`` that ``gomoku train ppo`` wrote. The file is read with
``torch.load(weights_only=True)`` (:func:`agents.training.torch_policy.load_policy`), so
it cannot run code. The agent plays the legal point the network scores highest: no
search, no randomness, the same move for the same position.
"""

from __future__ import annotations

from pathlib import Path

from agents.training.torch_policy import BundledWeights, NetworkAgent, load_policy
from gomoku_env.config import GameConfig

WEIGHTS = BundledWeights(Path(__file__).parent / "weights", "PPO policy")


def load_ppo_agent(
    config: GameConfig | None = None,
    seed: int | None = None,
    weights: str | None = None,
) -> NetworkAgent:
    """The agent of the spec ``ppo[:weights=NAME_OR_FILE]``.

    Args:
        config: the game; with ``weights`` None its board size picks the shipped
            policy (``"9x9"`` on 9×9).
        seed: accepted for the spec loader; the agent draws no randomness.
        weights: a shipped policy's name or a policy file's path.

    Raises:
        ValueError: no policy is shipped for the board, or ``weights`` names neither
            a shipped policy nor a readable policy file.
    """
    if weights is None:
        size = (config or GameConfig()).board_size
        weights = f"{size}x{size}"
        if WEIGHTS.file(weights) is None:
            raise ValueError(
                f"no PPO policy is shipped for {weights} (shipped: "
                f"{', '.join(WEIGHTS.names()) or 'none'}); train one with "
                "gomoku train ppo and give weights=FILE"
            )
    return NetworkAgent(load_policy(WEIGHTS.resolve(weights), config or GameConfig()))
