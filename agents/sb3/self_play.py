"""Self-play for Stable-Baselines3: frozen copies of a MaskablePPO learner, the
snapshots of a league (:class:`agents.league.LeagueOpponent`).

The league draws the opponents, keeps the pool and calls ``snapshot()`` on its
cadence; all SB3 adds is how to freeze its learner, :func:`frozen_policy`::

    league = LeagueOpponent(config, snapshot=lambda: frozen_policy(model))
    model = MaskablePPO("CnnPolicy", GomokuSB3VecEnv(16, opponent=league), ...)

(the lambda reads ``model`` when the league first calls it, after games finish). The
league is shared by reference, so it works with envs in this process (the vector
env, or one league per Gymnasium env under DummyVecEnv), not SubprocVecEnv.
"""

from __future__ import annotations

from typing import Any

from agents.sb3.policy_agent import PolicyAgent, policy_of


def frozen_policy(model: Any) -> PolicyAgent:
    """A frozen copy of ``model``'s policy (a MaskablePPO model or its policy),
    sampling its moves: later training does not change it."""
    learner = policy_of(model)
    policy = type(learner)(**learner._get_constructor_parameters())
    policy.load_state_dict(learner.state_dict())
    policy.set_training_mode(False)
    for parameter in policy.parameters():
        parameter.requires_grad_(False)
    return PolicyAgent(policy, deterministic=False)
