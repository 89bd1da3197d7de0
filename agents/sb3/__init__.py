"""Stable-Baselines3 integration: CNN extractor, models as agents, frozen snapshots
for self-play in a league, a warm start on teacher games, and the callbacks and win
rate of a training run.

Importing this package imports torch and stable-baselines3 (install the ``sb3`` extra);
``import gomoku_env`` alone never does.
"""

from gomoku_env.errors import require_extra

require_extra(
    ("torch", "stable_baselines3", "sb3_contrib"),
    "sb3",
    "The Stable-Baselines3 integration (agents.sb3)",
)

# Imported after the check, so a missing extra is told as such.
from agents.sb3.features import CELL_NET_ARCH, GomokuCNN  # noqa: E402
from agents.sb3.policy_agent import PolicyAgent, load_agent  # noqa: E402
from agents.sb3.self_play import frozen_policy  # noqa: E402
from agents.sb3.training import (  # noqa: E402
    BudgetCallback,
    win_rate,
    zip_budget,
)
from agents.sb3.warm_start import (  # noqa: E402
    learn_teacher_moves,
    teach_heuristic_moves,
)

__all__ = [
    "CELL_NET_ARCH",
    "BudgetCallback",
    "GomokuCNN",
    "PolicyAgent",
    "frozen_policy",
    "learn_teacher_moves",
    "load_agent",
    "teach_heuristic_moves",
    "win_rate",
    "zip_budget",
]
