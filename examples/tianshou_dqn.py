"""Train a DQN with Tianshou on the PettingZoo AEC env, against the curriculum.

A single file to read top to bottom (CleanRL style). Needs the ``tianshou`` extra:
``pip install -e '.[tianshou]'``. Run ``python examples/tianshou_dqn.py --help``.

The env is ``gomoku_env.env(...)`` in Tianshou's own ``PettingZooEnv`` wrapper, which
hands the action mask to the policy as ``obs.mask``; Tianshou's DQN policy never picks a
masked cell and its exploration draws only legal ones. The opponent (``--opponent``,
default ``curriculum``: each game an anchor of the board's rating scale near the
learner's running rating) plays the other seat inside the env
(:class:`gomoku_env.opponent_seat.OpponentSeat`), so Tianshou moves only for the
learner; the seats swap every round so the learner learns both colours. Tianshou's
``MultiAgentOffPolicyAlgorithm`` still wants an algorithm for the opponent's agent:
its masked random algorithm, which is never asked for a move. Each transition goes
from a learner's position to its next one, the opponent's reply (and its reward: -1
if that reply won) inside, so the return is one step.

Checks and output as in the other library examples (docs/rl-libraries.md): an
``IllegalActionCounter`` under the opponent's seat, the budget in env steps (both
players' moves), a progress line per round with the learner's running rating, the
network saved and played against random through the agent spec
(:func:`agents.training.example_runs.evaluate_policy_file`).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
from dataclasses import dataclass

import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

from agents.specs.flags import parse_dataclass
from agents.training.example_runs import (
    ExampleArgs,
    RunResult,
    TrainingEnvs,
    evaluate_policy_file,
    new_network,
    run_budget,
)
from agents.training.run_budget import RunBudget
from agents.training.torch_policy import PolicyNetwork, save_policy
from gomoku_env.fields import option

PLAYERS = ("black_0", "white_0")


@dataclass(frozen=True)
class Args(ExampleArgs):
    """The shared arguments (seed, board, budget, evaluation), then these."""

    rounds: int = option(
        8,
        help=(
            "the learner's seat swaps every steps / rounds env steps (a round), or "
            "every --max-round-steps if that is fewer"
        ),
        minimum=1,
    )
    max_round_steps: int = option(
        250_000,
        help="the longest round in env steps, so a larger budget swaps seats as often",
        minimum=1,
    )
    num_envs: int = option(8, help="games collected side by side")
    steps_per_update: int = option(
        8,
        help=(
            "learner moves collected between two gradient steps (with the "
            "opponent's replies: about twice as many env steps)"
        ),
    )
    batch_size: int = option(64, help="transitions per gradient step")
    learning_rate: float = option(1e-3, help="Adam learning rate")
    gamma: float = option(
        0.9, help="discount per two plies (one learner move and the reply)"
    )
    epsilon_start: float = option(
        0.5, help="exploration at the start (a random legal move with this probability)"
    )
    epsilon_end: float = option(0.05, help="exploration at the end, reached linearly")
    exploration_steps: int = option(
        1_000_000,
        help=(
            "env steps over which exploration falls to its end (sooner if the budget "
            "ends first); a longer budget then learns greedily for longer instead of "
            "exploring longer"
        ),
        minimum=1,
    )
    target_update: int = option(
        100, help="gradient steps between copies of the target network"
    )
    buffer_size: int = option(20_000, help="transitions kept in the replay buffer")
    threads: int = option(1, help="torch CPU threads")
    policy_path: str = option(
        "out/tianshou_dqn.pt", help="where the trained network is saved"
    )


class QNetwork(torch.nn.Module):
    """The shared PolicyNetwork in Tianshou's model signature: its scores are Q-values."""

    def __init__(self, network: PolicyNetwork) -> None:
        super().__init__()
        self.network = network

    def forward(self, obs, state=None, info=None):
        scores, _ = self.network(torch.as_tensor(obs))
        return scores, state


def epsilon(args: Args, budget: RunBudget, env_steps: int) -> float:
    """The exploration after ``env_steps``: from ``epsilon_start`` down to
    ``epsilon_end`` linearly over ``exploration_steps``, or over the budget when it
    ends sooner; then ``epsilon_end``."""
    progress = min(budget.progress(env_steps, env_steps / args.exploration_steps), 1.0)
    return args.epsilon_start + (args.epsilon_end - args.epsilon_start) * progress


def train(args: Args, network: PolicyNetwork, envs: TrainingEnvs) -> None:
    """Alternate the learner's seat each round; epsilon decays over the first
    ``exploration_steps`` env steps, or over the whole run if its budget (env steps or
    CPU hours) ends sooner."""
    budget = run_budget(args, trainer="tianshou DQN")
    probe = PettingZooEnv(envs.make(PLAYERS[0]))
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=QNetwork(network), action_space=probe.action_space
        ),
        optim=AdamOptimizerFactory(lr=args.learning_rate),
        gamma=args.gamma,
        n_step_return_horizon=1,
        target_update_freq=args.target_update,
    )
    opponent_seat = MARLRandomDiscreteMaskedOffPolicyAlgorithm(probe.action_space)
    round_steps = max(1, min(args.steps // args.rounds, args.max_round_steps))
    spent = False
    for round_index in itertools.count():
        seat = PLAYERS[round_index % 2]
        seats = (
            [learner, opponent_seat] if seat == PLAYERS[0] else [opponent_seat, learner]
        )
        algorithm = MultiAgentOffPolicyAlgorithm(algorithms=seats, env=probe)
        vector_env = DummyVectorEnv(
            [lambda seat=seat: PettingZooEnv(envs.make(seat))] * args.num_envs
        )
        vector_env.seed(args.seed + round_index)
        buffer = VectorReplayBuffer(args.buffer_size, args.num_envs)
        collector = Collector(algorithm, vector_env, buffer, exploration_noise=True)
        collector.reset()
        round_end = (round_index + 1) * round_steps
        while not spent and envs.env_steps() < round_end:
            learner.policy.set_eps_training(epsilon(args, budget, envs.env_steps()))
            # The learner's own policy must be told too: it, not the multi-agent
            # policy, draws the exploring moves, and outside a training step it
            # plays greedily (epsilon 0).
            with (
                policy_within_training_step(algorithm.policy),
                policy_within_training_step(learner.policy),
            ):
                collector.collect(n_step=args.steps_per_update)
                if len(buffer) >= args.batch_size:
                    with torch_train_mode(algorithm):
                        algorithm.update(buffer=buffer, sample_size=args.batch_size)
            spent = budget.spent(envs.env_steps(), network)
        print(
            f"round {round_index + 1}: {envs.env_steps()} env steps, {envs.progress()}"
        )
        if spent:
            break
    budget.finish(network)


def run(args: Args) -> RunResult:
    """Seed, train, save, and evaluate the saved network in the arena."""
    # Tianshou warns on every collect that two-player returns are 2-D; they are.
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    np.random.seed(args.seed)  # Tianshou's exploration draws from numpy's global state
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    network = new_network(args)
    envs = TrainingEnvs(args)
    train(args, network, envs)
    config = args.config
    save_policy(args.policy_path, network, config, trainer="tianshou DQN")
    return evaluate_policy_file(
        args.policy_path, config, args.eval_games, args.seed, envs.counters, envs
    )


def main() -> None:
    result = run(parse_dataclass(Args, __doc__.splitlines()[0]))
    print(json.dumps(dataclasses.asdict(result), indent=2))


if __name__ == "__main__":
    main()
