"""Train a DQN with Tianshou on the PettingZoo AEC env, against the curriculum.

A single file to read top to bottom (CleanRL style). Needs the ``tianshou`` extra:
``pip install -e '.[tianshou]'``. Run ``python examples/tianshou_dqn.py --help``.

The env is ``gomoku_env.env(...)`` in Tianshou's own ``PettingZooEnv`` wrapper, which
hands the action mask to the policy as ``obs.mask``; Tianshou's DQN policy never picks a
masked cell and its exploration draws only legal ones. The opponent (``--opponent``,
default ``curriculum``: each game an anchor of the board's rating scale near the
learner's running rating) plays the other seat inside the env
(:class:`gomoku_env.opponent_seat.OpponentSeat`), the learner's colour drawn per game,
so Tianshou moves only for the learner, and its ``MultiAgentOffPolicyAlgorithm`` gets
the one DQN for both agents: the learner learns both colours at once. Each transition
goes from a learner's position to its next one, the opponent's reply (and its reward:
-1 if that reply won) inside, so the return is one step.

With ``--anchor-weight W`` after a warm start (``--teacher-games``), the loss adds W
times the KL divergence from the warm-started network's moves to the moves of the
Q-values' softmax (:class:`AnchoredDQN`): DQN's regression alone undoes the warm
start's ranking of the moves (docs/zoo.md, Tianshou).

Checks and output as in the other library examples (docs/rl-libraries.md): an
``IllegalActionCounter`` under the opponent's seat, the budget in env steps (both
players' moves), a progress line every ``--progress-every`` env steps with the
learner's running rating, the network saved and played against random through the agent spec
(:func:`agents.training.example_runs.evaluate_policy_file`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass

import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.modelfree.reinforce import SimpleLossTrainingStats
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

from agents.specs.flags import parse_dataclass
from agents.training.example_runs import (
    AnchoredExampleArgs,
    RunResult,
    TrainingEnvs,
    evaluate_policy_file,
    new_network,
    run_budget,
)
from agents.training.policy_anchor import (
    PolicyAnchor,
    kl_from,
    move_log_probabilities,
)
from agents.training.run_budget import RunBudget
from agents.training.torch_policy import PolicyNetwork, save_policy
from gomoku_env.fields import option
from gomoku_env.opponent_seat import RANDOM_SEAT


@dataclass(frozen=True)
class Args(AnchoredExampleArgs):
    """The shared arguments (seed, board, budget, evaluation, anchor), then these."""

    progress_every: int = option(
        100_000,
        help="env steps between two progress lines (the learner's running rating)",
        minimum=1,
    )
    num_envs: int = option(
        8, help="games collected side by side", minimum=1, maximum=1024
    )
    steps_per_update: int = option(
        8,
        help=(
            "learner moves collected between two gradient steps (with the "
            "opponent's replies: about twice as many env steps)"
        ),
    )
    batch_size: int = option(
        64, help="transitions per gradient step", minimum=1, maximum=65_536
    )
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
    buffer_size: int = option(
        20_000,
        help="transitions kept in the replay buffer",
        minimum=1,
        maximum=5_000_000,
    )
    soft_q_temperature: float = option(
        0.0,
        help=(
            "0: the network's scores are the Q-values; above 0: the Q-values are the "
            "value head plus this times the log-probabilities of the scores' softmax "
            "over the empty cells (the soft Q relation Q = V + T log pi), so a "
            "warm-started network starts as Q-values on the returns' scale"
        ),
        minimum=0.0,
        maximum=10.0,
    )
    threads: int = option(1, help="torch CPU threads")
    policy_path: str = option(
        "out/tianshou_dqn.pt", help="where the trained network is saved"
    )


OCCUPIED_LOG_PROBABILITY = -1e4
"""The score an occupied cell gets before the softmax of the soft Q-values: finite, so
that Tianshou's own masking (which subtracts the spread of the Q-values) stays finite."""


class QNetwork(torch.nn.Module):
    """The shared PolicyNetwork in Tianshou's model signature.

    With ``temperature`` 0 its scores are the Q-values. Above 0 they are
    ``value + temperature * log_softmax(scores)`` over the empty cells: the relation
    between a policy, its value and its Q-values in entropy-regularised RL. A network
    warm-started on the teacher's moves then starts as Q-values in [-1, 1] that already
    rank its best move first, where its raw scores (cross-entropy logits, far outside
    the returns' range) are what DQN's regression pulls apart
    (runs/experiments/tianshou-warm-start-loss/). The greedy move is the same either
    way (the value is one number per position), so the saved network plays as trained.
    """

    def __init__(self, network: PolicyNetwork, temperature: float = 0.0) -> None:
        super().__init__()
        self.network = network
        self.temperature = temperature

    def forward(self, obs, state=None, info=None):
        planes = torch.as_tensor(obs)
        scores, values = self.network(planes)
        if self.temperature:
            occupied = (planes[..., 0] + planes[..., 1]).flatten(1) != 0
            log_probabilities = torch.log_softmax(
                scores.masked_fill(occupied, OCCUPIED_LOG_PROBABILITY), dim=1
            )
            scores = values.unsqueeze(1) + self.temperature * log_probabilities
        return scores, state


class AnchoredDQN(DQN):
    """Tianshou's DQN with the warm start's anchor in its loss: the squared TD error,
    as DQN's, plus ``anchor_weight`` times the KL divergence from the ``anchor``'s
    moves to the softmax of the Q-values over the legal cells, at ``temperature``.
    At the soft-Q temperature that softmax is the network's policy exactly
    (``Q / T = V / T + log pi``); with plain Q-values (temperature 1) it is the
    scores' softmax, the warm start's own distribution."""

    def __init__(
        self, *, anchor: PolicyAnchor, anchor_weight: float, temperature: float, **kw
    ) -> None:
        super().__init__(**kw)
        self.anchor = anchor
        self.anchor_weight = anchor_weight
        self.temperature = temperature

    def _update_with_batch(self, batch) -> SimpleLossTrainingStats:
        self._periodically_update_lagged_network_weights()
        weight = torch.as_tensor(batch.pop("weight", 1.0))
        q_values = self.policy(batch).logits
        chosen = q_values[torch.arange(len(q_values)), torch.as_tensor(batch.act)]
        td_error = torch.as_tensor(batch.returns.flatten()).to(chosen) - chosen
        planes, masks = torch.as_tensor(batch.obs.obs), torch.as_tensor(batch.obs.mask)
        moves = move_log_probabilities(q_values / self.temperature, masks)
        kl = kl_from(self.anchor.log_probabilities(planes, masks), moves)
        loss = (td_error.pow(2) * weight).mean() + self.anchor_weight * kl.mean()
        batch.weight = td_error  # a prioritised buffer's new priorities, as DQN's
        self.optim.step(loss)
        return SimpleLossTrainingStats(loss=loss.item())


def epsilon(args: Args, budget: RunBudget, env_steps: int) -> float:
    """The exploration after ``env_steps``: from ``epsilon_start`` down to
    ``epsilon_end`` linearly over ``exploration_steps``, or over the budget when it
    ends sooner; then ``epsilon_end``."""
    progress = min(budget.progress(env_steps, env_steps / args.exploration_steps), 1.0)
    return args.epsilon_start + (args.epsilon_end - args.epsilon_start) * progress


def train(args: Args, network: PolicyNetwork, envs: TrainingEnvs) -> None:
    """Collect and learn until the budget is spent; epsilon decays over the first
    ``exploration_steps`` env steps, or over the whole run if its budget (env steps or
    CPU hours) ends sooner.

    Each game draws the learner's colour (``OpponentSeat``'s random seat), and both
    of Tianshou's agents are the one DQN: an update splits its sampled batch by agent,
    so the network learns from both colours' moves at every step (two gradient steps,
    one on each colour's share). Training the colours in turns instead (a run's
    first version) made each colour forget the other: checkpoints 400 to 800 Elo
    apart as black and as white."""
    budget = run_budget(args, trainer="tianshou DQN")
    probe = PettingZooEnv(envs.make(RANDOM_SEAT))
    settings = dict(
        policy=DiscreteQLearningPolicy(
            model=QNetwork(network, args.soft_q_temperature),
            action_space=probe.action_space,
        ),
        optim=AdamOptimizerFactory(lr=args.learning_rate),
        gamma=args.gamma,
        n_step_return_horizon=1,
        target_update_freq=args.target_update,
    )
    learner = (
        AnchoredDQN(
            anchor=PolicyAnchor(network),
            anchor_weight=args.anchor_weight,
            temperature=args.soft_q_temperature or 1.0,
            **settings,
        )
        if args.anchor_weight
        else DQN(**settings)
    )
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, learner], env=probe)
    vector_env = DummyVectorEnv(
        [lambda: PettingZooEnv(envs.make(RANDOM_SEAT))] * args.num_envs
    )
    vector_env.seed(args.seed)
    buffer = VectorReplayBuffer(args.buffer_size, args.num_envs)
    collector = Collector(algorithm, vector_env, buffer, exploration_noise=True)
    collector.reset()
    spent, next_line = False, args.progress_every
    while not spent:
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
        if spent or envs.env_steps() >= next_line:
            print(f"{envs.env_steps()} env steps, {envs.progress()}", flush=True)
            next_line = envs.env_steps() + args.progress_every
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
