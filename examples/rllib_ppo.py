"""Train PPO with RLlib on the PettingZoo AEC env, against the curriculum.

A single file to read top to bottom (CleanRL style). Needs the ``rllib`` extra:
``pip install -e '.[rllib]'``. Run ``python examples/rllib_ppo.py --help``.

The env is ``gomoku_env.env(...)`` in RLlib's own ``PettingZooEnv`` wrapper, which turns
the AEC game into a turn-based ``MultiAgentEnv``: only the player to move observes. The
policy is an RLModule on RLlib's current API stack, :class:`MaskedPolicyModule`: our
network with the illegal cells' logits masked out (so PPO's sampling,
log-probabilities and entropy only ever see legal cells) and a value head. The
opponent (``--opponent``, default ``curriculum``: each game an anchor of the board's
rating scale near the learner's running rating) plays the other seat inside the env
(:class:`gomoku_env.opponent_seat.OpponentSeat`), the learner's colour drawn per game,
so every player RLlib sees is the learner and the policy mapping sends both to it.

Checks and output as in the other library examples (docs/rl-libraries.md): an
``IllegalActionCounter`` under the opponent's seat, the budget in env steps (both
players' moves), a progress line per iteration with the learner's running rating, the
network saved and played against random through the agent spec
(:func:`agents.training.example_runs.evaluate_policy_file`).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from agents.specs.flags import parse_dataclass
from agents.training.example_runs import (
    ExampleArgs,
    RunResult,
    TrainingEnvs,
    evaluate_policy_file,
    new_network,
    run_budget,
)
from agents.training.torch_policy import PolicyNetwork, mask_scores, save_policy
from gomoku_env.fields import option


@dataclass(frozen=True)
class Args(ExampleArgs):
    """The shared arguments (seed, board, budget, evaluation), then these."""

    steps_per_iteration: int = option(
        500,
        help=(
            "learner moves sampled per PPO iteration (RLlib's env steps; with the "
            "opponent's replies about twice as many env steps of the budget)"
        ),
        minimum=1,
        maximum=1_000_000,
    )
    minibatch_size: int = option(
        128, help="PPO minibatch size", minimum=1, maximum=65_536
    )
    epochs: int = option(6, help="passes over each iteration's samples")
    learning_rate: float = option(1e-3, help="Adam learning rate")
    gamma: float = option(0.95, help="discount per learner move")
    entropy_weight: float = option(0.01, help="weight of the entropy bonus")
    threads: int = option(1, help="torch CPU threads")
    policy_path: str = option(
        "out/rllib_ppo.pt", help="where the trained network is saved"
    )


class MaskedPolicyModule(TorchRLModule, ValueFunctionAPI):
    """Our PolicyNetwork as a PPO RLModule: masked logits and a value estimate."""

    def setup(self) -> None:
        # Every copy RLlib builds (the sampler's, the learner's) starts from the
        # example's network: random or warm-started (--teacher-games).
        start = self.model_config["start"]
        self.network = PolicyNetwork(start.shape)
        self.network.load_state_dict(start.state_dict())

    def _masked_logits(
        self, batch: dict[str, Any]
    ) -> tuple[torch.Tensor, torch.Tensor]:
        observation = batch[Columns.OBS]
        scores, values = self.network(observation["observation"])
        return mask_scores(scores, observation["action_mask"]), values

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _ = self._masked_logits(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, values = self._masked_logits(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: values}

    def compute_values(
        self, batch: dict[str, Any], embeddings: torch.Tensor | None = None
    ) -> torch.Tensor:
        if embeddings is not None:  # the values _forward_train computed
            return embeddings
        return self._masked_logits(batch)[1]


def learner(agent_id: str, episode: Any, **kwargs: Any) -> str:
    """Map a player to a policy: whichever colour RLlib sees is the learner's."""
    return "learner"


def build(args: Args, envs: TrainingEnvs, start: PolicyNetwork):
    """The PPO algorithm, sampling in this process (no env-runner actors), its
    network's copies starting as ``start``. Its env is a class, not a name in Tune's
    registry, which would hand RLlib a pickled copy of ``envs``: the envs RLlib makes
    are ``envs``'s."""

    class TrainingEnv(PettingZooEnv):
        def __init__(self, env_config: Any) -> None:
            # RLlib's wrapper reports every agent that takes a last step: the
            # opponent takes its own inside the env.
            super().__init__(envs.make("random", opponent_leaves=True))

    config = (
        PPOConfig()
        .environment(TrainingEnv)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .multi_agent(
            policies={"learner"},
            policy_mapping_fn=learner,
            policies_to_train=["learner"],
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "learner": RLModuleSpec(
                        module_class=MaskedPolicyModule,
                        model_config={"start": start},
                    ),
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.steps_per_iteration,
            minibatch_size=args.minibatch_size,
            num_epochs=args.epochs,
            lr=args.learning_rate,
            gamma=args.gamma,
            entropy_coeff=args.entropy_weight,
        )
        .debugging(seed=args.seed)
    )
    return config.build_algo()


def run(args: Args) -> RunResult:
    """Seed, train, save, and evaluate the saved network in the arena."""
    torch.manual_seed(args.seed)
    # The learner trains in this process: one thread, as the other examples (torch's
    # default of a thread per core, beside Ray's processes, ran 8x slower here).
    torch.set_num_threads(args.threads)
    # Use the Ray that is already running (a notebook's, a cluster's), else start one.
    started_ray = not ray.is_initialized()
    if started_ray:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        envs = TrainingEnvs(args)
        algorithm = build(args, envs, new_network(args))
        budget = run_budget(args, trainer="rllib PPO")
        iteration, spent = 0, False
        while not spent:
            algorithm.train()
            iteration += 1
            network = algorithm.get_module("learner").network
            spent = budget.spent(envs.env_steps(), network)
            print(
                f"iteration {iteration}: {envs.env_steps()} env steps, {envs.progress()}"
            )
        network = algorithm.get_module("learner").network
        budget.finish(network)
        config = args.config
        save_policy(args.policy_path, network, config, trainer="rllib PPO")
        algorithm.stop()
    finally:
        if started_ray:
            ray.shutdown()
    return evaluate_policy_file(
        args.policy_path, config, args.eval_games, args.seed, envs.counters, envs
    )


def main() -> None:
    result = run(parse_dataclass(Args, __doc__.splitlines()[0]))
    print(json.dumps(dataclasses.asdict(result), indent=2))


if __name__ == "__main__":
    main()
