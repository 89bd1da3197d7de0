"""Train the learned PPO baseline on 9×9 and draw its learning curve.

The recipe of docs/ppo.md, one command (needs the ``ppo`` and ``plot`` extras)::

    python examples/ppo_recipe.py --run-dir runs/ppo-9x9 --seed 1

A warm start from the heuristic's moves, then PPO against the heuristic on the compiled
vector env (:mod:`agents.ppo.training`), until ``--env-steps`` or ``--cpu-hours``.
At the start of PPO and every ``--point-every`` env steps the policy plays
``--point-games`` arena games (the opening book, colours alternating) against each of
``--point-opponents``; the scores go to ``RUN_DIR/curve.csv`` and ``curve.png``, against
CPU hours and env steps. Training CPU time leaves these games out.

Run it again with the same ``--run-dir`` to resume a stopped run from its checkpoint
(the curve's rows so far are kept). The trained policy is ``RUN_DIR/policy.pt``; play it
as ``ppo:weights=RUN_DIR/policy.pt`` anywhere an agent spec goes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from agents.options import parse_dataclass
from agents.ppo.training import PPOConfig, RunState, train
from agents.torch_policy import PolicyNetwork, save_policy
from gomoku_apps.arena.learning_curve import LearningCurve
from gomoku_apps.arena.match import Arena


@dataclass(frozen=True)
class RecipeArgs(PPOConfig):
    run_dir: str = "runs/ppo-9x9"
    """folder of the checkpoint, the policy and the curve (an existing run resumes)"""
    point_every: int = 300_000
    """env steps between learning-curve points"""
    point_games: int = 20
    """arena games per opponent per curve point"""
    point_opponents: str = "random;heuristic;mcts:simulations=400"
    """opponent specs of the curve, separated by ';'"""
    jobs: int = 2
    """worker processes of the curve's games"""


class CurvePoints:
    """Plays the curve's games for a network and adds the row to the curve."""

    def __init__(self, args: RecipeArgs) -> None:
        self.args = args
        self.run_dir = Path(args.run_dir)
        self.opponents = [spec.strip() for spec in args.point_opponents.split(";")]
        self.curve = LearningCurve(
            self.run_dir / "curve.csv", self.opponents, self.run_dir / "curve.png"
        )
        self.curve.load_rows()
        self.arena = Arena(args.game, openings="book", seed=args.seed, jobs=args.jobs)

    def __call__(self, network: PolicyNetwork, state: RunState) -> None:
        path = save_policy(
            self.run_dir / "points" / f"{state.env_steps}.pt", network, self.args.game
        )
        scores = {
            spec: self.arena.match(f"ppo:weights={path}", spec, self.args.point_games)
            .summary()
            .score
            for spec in self.opponents
        }
        self.curve.add(state.env_steps, state.cpu_hours, scores)
        shown = "  ".join(f"{spec} {score:.2f}" for spec, score in scores.items())
        print(f"curve at {state.env_steps} steps, {state.cpu_hours:.3f} CPU h: {shown}")


def main() -> None:
    args = parse_dataclass(RecipeArgs, __doc__.splitlines()[0])
    config = PPOConfig(
        **{
            item.name: getattr(args, item.name)
            for item in dataclasses.fields(PPOConfig)
        }
    )
    _, state = train(config, args.run_dir, CurvePoints(args), args.point_every)
    print(
        f"done: {state.env_steps} env steps, {state.cpu_hours:.3f} CPU h; "
        f"the policy is {Path(args.run_dir) / 'policy.pt'}"
    )


if __name__ == "__main__":
    main()
