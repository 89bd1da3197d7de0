"""Train a masked policy gradient with TorchRL on the PettingZoo AEC env, against the
curriculum.

A single file to read top to bottom (CleanRL style). Needs the ``torchrl`` extra:
``pip install -e '.[torchrl]'``. Run ``python examples/torchrl_reinforce.py --help``.

The env is ``gomoku_env.env(...)`` in TorchRL's own ``PettingZooWrapper`` with
``use_mask=True``: one tensordict group per player (``black_0``, ``white_0``), each with
its ``observation``, its boolean ``action_mask`` and ``mask`` (whether that player is the
one to move). The opponent (``--opponent``, default ``curriculum``: each game an anchor
of the board's rating scale near the learner's running rating) plays one seat inside
the env (:class:`gomoku_env.opponent_seat.OpponentSeat`), so only the learner's group
ever moves. The policy is a ``TensorDictSequential`` of one module per group, each
sampling from the network's scores with the illegal cells masked out (TorchRL wants an
action from every group; the one not to move is ignored). A ``Collector`` plays fresh
games every batch, and the learner's seat swaps every batch (an env for each), so it
learns both colours.

The update is REINFORCE with a learned baseline: every learner move of a finished game
is credited with the game's result for the learner, discounted by the learner's moves
left to the end, minus the network's value estimate. With ``--anchor-weight W`` after a
warm start (``--teacher-games``), the loss also holds the policy near the warm-started
network: W times the KL divergence from that network's move distribution to the
policy's, on the learner's positions (AlphaStar's KL to its supervised policy). Without
it, REINFORCE drifts a nat or more from one checkpoint to the next and, given 2 CPU-h,
loses the 32,000-game warm start (docs/zoo.md, TorchRL).

Checks and output as in the other library examples (docs/rl-libraries.md): an
``IllegalActionCounter`` under the opponent's seat, the budget in env steps (both
players' moves), a progress line every ten batches with the learner's running rating,
the network saved and played against random through the agent spec
(:func:`agents.training.example_runs.evaluate_policy_file`).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

import torch
from tensordict import TensorDictBase
from tensordict.nn import TensorDictModule, TensorDictSequential
from torchrl.collectors import Collector
from torchrl.envs import PettingZooWrapper

from agents.specs.flags import parse_dataclass
from agents.training.example_runs import (
    AnchoredExampleArgs,
    RunResult,
    TrainingEnvs,
    evaluate_policy_file,
    new_network,
    run_budget,
)
from agents.training.policy_anchor import PolicyAnchor, kl_from
from agents.training.torch_policy import (
    PolicyNetwork,
    mask_scores,
    save_policy,
)
from gomoku_env.fields import option

PLAYERS = ("black_0", "white_0")


@dataclass(frozen=True)
class Args(AnchoredExampleArgs):
    """The shared arguments (seed, board, budget, evaluation, anchor), then these."""

    steps: int = option(12_000, help="env steps to collect (both players' moves count)")
    steps_per_batch: int = option(
        100,
        help=(
            "learner moves per collector batch (fresh games each batch; the seats swap)"
        ),
        minimum=1,
        maximum=1_000_000,
    )
    updates_per_batch: int = option(8, help="gradient steps on each batch")
    learning_rate: float = option(
        3e-4,
        help=(
            "Adam learning rate (at 5e-3 or 1e-3 the scores grow to the hundreds "
            "within 200,000 env steps on 9x9 and the policy collapses onto one move)"
        ),
    )
    gamma: float = option(
        0.9, help="discount per learner move, so quicker wins count more"
    )
    value_weight: float = option(
        0.5, help="weight of the baseline's squared error in the loss"
    )
    entropy_weight: float = option(0.01, help="weight of the entropy bonus")
    threads: int = option(1, help="torch CPU threads")
    policy_path: str = option(
        "out/torchrl_reinforce.pt", help="where the trained network is saved"
    )


class MaskedSampler(torch.nn.Module):
    """Samples a legal cell from the network's masked scores."""

    def __init__(self, network: PolicyNetwork) -> None:
        super().__init__()
        self.network = network

    def forward(self, planes: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            scores, _ = self.network(planes)
        logits = mask_scores(scores, legal)
        return torch.distributions.Categorical(logits=logits).sample()


def make_policy(network: PolicyNetwork) -> TensorDictSequential:
    """One module per group, each the network's masked sampler."""
    modules = [
        TensorDictModule(
            MaskedSampler(network),
            in_keys=[(player, "observation", "observation"), (player, "action_mask")],
            out_keys=[(player, "action")],
        )
        for player in PLAYERS
    ]
    return TensorDictSequential(*modules)


def learner_returns(batch: TensorDictBase, learner: str, gamma: float):
    """The learner's moves in finished games: (planes, masks, actions, returns)."""
    acted = batch[learner, "mask"].reshape(-1)
    done = batch["next", "done"].reshape(-1)
    final_reward = batch["next", learner, "reward"].reshape(-1)
    returns = torch.zeros(len(done))
    finished = torch.zeros(len(done), dtype=torch.bool)
    outcome, moves_left, in_finished_game = 0.0, 0, False
    for step in reversed(range(len(done))):  # walk back from each game's end
        if done[step]:
            outcome, moves_left, in_finished_game = float(final_reward[step]), 0, True
        if acted[step] and in_finished_game:
            returns[step] = outcome * gamma**moves_left
            finished[step] = True
            moves_left += 1
    return (
        per_move(batch, (learner, "observation", "observation"))[finished],
        per_move(batch, (learner, "action_mask"))[finished],
        per_move(batch, (learner, "action"))[finished],
        returns[finished],
    )


def per_move(batch: TensorDictBase, key: tuple[str, ...]) -> torch.Tensor:
    """The batch's ``key`` with one row a move: the group's agent dimension (one agent
    in each group) dropped, so planes are (moves, N, N, 5) and actions (moves,). Kept,
    an action of shape (moves, 1) would broadcast each move's log-probability against
    every other move's action."""
    value = batch[key]
    return value.reshape(batch.numel(), *value.shape[batch.ndim + 1 :])


def update(
    network,
    optimizer,
    args: Args,
    samples,
    anchor: torch.Tensor | None = None,
) -> None:
    """One REINFORCE-with-baseline gradient step on the learner's moves; given the
    ``anchor``'s move log-probabilities on the same positions, the policy is held near
    them (``args.anchor_weight``, :mod:`agents.training.policy_anchor`)."""
    planes, masks, actions, returns = samples
    if len(returns) == 0:
        return
    scores, values = network(planes)
    distribution = torch.distributions.Categorical(logits=mask_scores(scores, masks))
    advantages = returns - values.detach()
    loss = (
        -(advantages * distribution.log_prob(actions)).mean()
        + args.value_weight * ((returns - values) ** 2).mean()
        - args.entropy_weight * distribution.entropy().mean()
    )
    if anchor is not None:
        loss = loss + args.anchor_weight * kl_from(anchor, distribution.logits).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train(args: Args, network: PolicyNetwork, envs: TrainingEnvs) -> None:
    """Collect a batch of fresh games, learn from the learner's moves, swap the seats;
    until the env steps or the CPU hours run out."""
    seats = {
        player: PettingZooWrapper(
            envs.make(player), use_mask=True, categorical_actions=True, seed=args.seed
        )
        for player in PLAYERS
    }
    policy = make_policy(network)
    anchor = PolicyAnchor(network) if args.anchor_weight else None
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate)
    budget = run_budget(args, trainer="torchrl REINFORCE")
    batch_index, spent = 0, False
    while not spent:
        learner = PLAYERS[batch_index % 2]
        collector = Collector(
            seats[learner],
            policy,
            frames_per_batch=args.steps_per_batch,
            total_frames=args.steps_per_batch,
            auto_register_policy_transforms=False,  # the policy keeps no state
        )
        for batch in collector:
            samples = learner_returns(batch, learner, args.gamma)
            planes, masks, _, _ = samples
            anchored = (
                None if anchor is None else anchor.log_probabilities(planes, masks)
            )
            for _ in range(args.updates_per_batch):
                update(network, optimizer, args, samples, anchored)
        batch_index += 1
        spent = budget.spent(envs.env_steps(), network)
        if batch_index % 10 == 0 or spent:
            print(
                f"batch {batch_index}: {envs.env_steps()} env steps, {envs.progress()}"
            )
    budget.finish(network)


def run(args: Args) -> RunResult:
    """Seed, train, save, and evaluate the saved network in the arena."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    network = new_network(args)
    envs = TrainingEnvs(args)
    train(args, network, envs)
    config = args.config
    save_policy(args.policy_path, network, config, trainer="torchrl REINFORCE")
    return evaluate_policy_file(
        args.policy_path, config, args.eval_games, args.seed, envs.counters, envs
    )


def main() -> None:
    result = run(parse_dataclass(Args, __doc__.splitlines()[0]))
    print(json.dumps(dataclasses.asdict(result), indent=2))


if __name__ == "__main__":
    main()
