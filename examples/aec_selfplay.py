"""Self-play policy gradient on the PettingZoo AEC env, in one file (CleanRL style).

One network plays both seats of ``gomoku_env.env()``. Each game is walked with
``env.agent_iter()`` / ``env.last()``: when it is an agent's turn, it samples a legal
move from the masked scores and remembers the log-probability, the value it predicted
and the entropy. When the game is over, every agent gets one more turn in the loop, at
which ``env.last()`` hands it its final reward (+1 win, -1 loss, 0 draw) with
``termination`` True; it must then step ``None``. That final reward is the return of
every move the agent made (undiscounted: a game is short and only its result counts),
so each move's loss is REINFORCE with the value as baseline, plus the value's squared
error and an entropy bonus. Every ``--batch-games`` games make one update.

The network is :class:`agents.training.torch_policy.PolicyNetwork`, saved with
:func:`agents.training.torch_policy.save_policy`, so the result plays anywhere an agent
spec does::

    python examples/aec_selfplay.py                 # 9x9, the defaults below
    gomoku arena \\
        'python:agents.training.torch_policy:load_agent,path=runs/aec_selfplay/policy.pt' \\
        heuristic --board-size 9 --games 20
    gomoku rate \\
        'python:agents.training.torch_policy:load_agent,path=runs/aec_selfplay/policy.pt' \\
        --board-size 9 --margin 100

Torch runs one thread (``--threads``): the batches are single positions, and more
threads only fight over the cores (a 37-line script took 5 minutes instead of 30
seconds with torch's default threads on a 2-core machine).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch.distributions import Categorical

import gomoku_env
from agents.specs.flags import parse_dataclass
from agents.specs.parse import make_agent
from agents.training.head_to_head import play_match
from agents.training.run_budget import RunBudget
from agents.training.torch_policy import (
    NetworkAgent,
    PolicyNetwork,
    PolicyShape,
    mask_scores,
    save_policy,
)
from gomoku_env.fields import check_fields, option


@dataclass(frozen=True)
class Args:
    """Every setting of the run, with its default; each field is a command-line flag
    (``--board-size 9``) with its docstring as help
    (:func:`agents.specs.flags.parse_dataclass`)."""

    seed: int = option(0, help="seeds torch, the games and the evaluation")
    board_size: int = option(9, help="side of the board")
    win_length: int = option(5, help="stones in a row that win")
    games: int = option(
        4000, help="self-play games to learn from", minimum=1, maximum=10**9
    )
    batch_games: int = option(
        16, help="games per gradient update", minimum=1, maximum=4096
    )
    learning_rate: float = option(3e-3, help="Adam's step size")
    value_weight: float = option(
        0.5, help="weight of the value's squared error in the loss"
    )
    entropy_weight: float = option(
        0.01, help="weight of the entropy bonus (keeps the policy exploring)"
    )
    channels: int = option(
        32, help="width of the network's convolutions", minimum=1, maximum=512
    )
    layers: int = option(3, help="number of 3x3 convolutions", minimum=1, maximum=40)
    threads: int = option(1, help="torch CPU threads")
    eval_games: int = option(
        40,
        help="games against each of random and heuristic at the end (and at the start)",
        minimum=0,
        maximum=100_000,
    )
    out: str = option(
        "runs/aec_selfplay", help="folder of the saved policy (policy.pt)"
    )
    steps: int | None = option(
        None,
        help=(
            "also stop after this many env steps, every move of both seats (the one "
            "network plays them all); none: --games alone"
        ),
        minimum=1,
        maximum=10**10,
    )
    cpu_hours: float | None = option(
        None,
        help="also stop once training has used this many CPU hours; none: no limit",
        above=0,
        maximum=1000,
    )
    checkpoints: int = option(
        0,
        help=(
            "policies saved along the run in OUT, evenly spaced in the budget, listed"
            " in OUT/checkpoints.csv (:class:`agents.training.run_budget.RunBudget`);"
            " 0: none"
        ),
        minimum=0,
        maximum=1000,
    )

    def __post_init__(self) -> None:
        check_fields(self)


def play_one_game(env, network: PolicyNetwork, seed: int) -> tuple[list, list]:
    """One self-play game: for each move, (log-probability, value, entropy) and the
    mover's final reward, which reaches each agent at its last ``env.last()``."""
    env.reset(seed=seed)
    moves: dict[str, list] = {agent: [] for agent in env.possible_agents}
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = float(reward)  # the game's result for this agent
            env.step(None)
            continue
        scores, value = network(observation["observation"][None])
        policy = Categorical(logits=mask_scores(scores, observation["action_mask"]))
        action = policy.sample()
        moves[agent].append((policy.log_prob(action), value, policy.entropy()))
        env.step(int(action))
    steps = [step for agent in moves for step in moves[agent]]
    returns = [final[agent] for agent in moves for _ in moves[agent]]
    return steps, returns


def loss_of(steps: list, returns: list, args: Args) -> torch.Tensor:
    """REINFORCE with the value as baseline, the value's error and the entropy bonus."""
    log_probs = torch.cat([log_prob for log_prob, _, _ in steps])
    values = torch.cat([value for _, value, _ in steps])
    entropies = torch.cat([entropy for _, _, entropy in steps])
    target = torch.tensor(returns, dtype=torch.float32)
    advantage = (target - values).detach()
    return (
        -(log_probs * advantage).mean()
        + args.value_weight * (target - values).pow(2).mean()
        - args.entropy_weight * entropies.mean()
    )


def scores_against(network: PolicyNetwork, args: Args) -> dict[str, float]:
    """Seeded scores (games from random two-stone openings, colours alternating):
    the sampled policy against random (what the training improves first: about 0.5
    before any), then the greedy network, as it is saved and played, against random
    and heuristic."""
    config = gomoku_env.GameConfig(args.board_size, args.win_length)
    matches = {
        "sampled vs random": (
            NetworkAgent(network, sample=True, seed=args.seed),
            "random",
        ),
        "greedy vs random": (NetworkAgent(network), "random"),
        "greedy vs heuristic": (NetworkAgent(network), "heuristic"),
    }
    return {
        name: play_match(
            agent, make_agent(opponent, config, seed=args.seed), config,
            args.eval_games, seed=args.seed,
        ).score
        for name, (agent, opponent) in matches.items()
    }  # fmt: skip


def train(args: Args) -> dict[str, float]:
    """Run the self-play training; returns the scores before and after (against
    random and heuristic), the CPU seconds it took and the env steps it learnt from."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    env = gomoku_env.env(board_size=args.board_size, win_length=args.win_length)
    config = env.unwrapped.config
    shape = PolicyShape(channels=args.channels, layers=args.layers, border=True)
    network = PolicyNetwork(shape)
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate)
    start = scores_against(network.eval(), args)
    print(format_scores("start", start, args))
    budget = RunBudget(
        args.steps or sys.maxsize,
        args.cpu_hours,
        args.checkpoints,
        Path(args.out) / "policy.pt",
        lambda path, model: save_policy(path, model, config, trainer="aec_selfplay"),
    )
    network.train()
    done = collected = 0
    while done < args.games:  # or until the budget ends, whichever is first
        batch = [
            play_one_game(env, network, int(rng.integers(2**31)))
            for _ in range(min(args.batch_games, args.games - done))
        ]
        loss = sum(loss_of(steps, returns, args) for steps, returns in batch)
        loss = loss / len(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        done += len(batch)
        collected += sum(len(steps) for steps, _ in batch)
        if done % (args.batch_games * 25) == 0 or done == args.games:
            print(
                f"{done} games, {collected} steps, loss {loss.item():.3f}", flush=True
            )
        if budget.spent(collected, network, done / args.games):
            break
    budget.finish(network)
    cpu_seconds = budget.cpu_seconds()
    scores = scores_against(network.eval(), args)
    path = save_policy(budget.path, network, config, trainer="aec_selfplay")
    print(format_scores("end", scores, args))
    print(
        f"{done} games, {collected} env steps, {cpu_seconds:.0f} CPU seconds of "
        f"training; the policy: {path}"
    )
    return {
        **{f"start {k}": v for k, v in start.items()},
        **scores,
        "cpu": cpu_seconds,
        "steps": collected,
    }


def format_scores(when: str, scores: dict[str, float], args: Args) -> str:
    """One line of scores, each over ``eval_games`` games."""
    shown = ", ".join(f"{name} {score:.3f}" for name, score in scores.items())
    return f"{when} ({args.eval_games} games each): {shown}"


if __name__ == "__main__":
    train(parse_dataclass(Args, __doc__.splitlines()[0]))
