"""What the package is for, in under a minute: an env's loop, something learning in it,
and a game between the strongest agents written as a GIF and a game record.

1. The RL loop: one step of the compiled vector env, showing the observation planes,
   the action mask and a reward.
2. Learning: a small policy network
   (:class:`agents.training.torch_policy.PolicyNetwork`) trained by advantage
   actor-critic on 64 games of 6×6 four-in-a-row against ``random``, its win rate
   printed as it rises (about half at the start).
3. A game between the strongest baselines, printed and drawn to ``out/demo.gif``.

Run with ``make demo``. The players are agent specs (see ``agents/specs/parse.py``),
named by the one constant PLAYERS: change it to pit other agents against each other.
AlphaZero (the shipped 15×15 network, its search with VCF checks) tops both reference
ladders (docs/ladder-9x9.md, docs/ladder-15x15.md). Both search 200 simulations a move
(about 0.3 s here), a work budget: the same seed plays the same game on any machine and
under any load, which a clock would not. The first run also compiles the search kernels
(under a minute) and caches them.
"""

from __future__ import annotations

import time
from pathlib import Path

import gymnasium
import numpy as np
import torch

import gomoku_env
from agents.specs.parse import make_agent
from agents.training.torch_policy import PolicyNetwork, PolicyShape, mask_scores
from gomoku_env.records import GameRecord
from gomoku_env.render import RenderOptions, save_gif
from gomoku_env.render.gif import final_caption

PLAYERS = ("alphazero:simulations=200", "alphazero:simulations=200")
"""(black, white): the strongest agents, on a work budget (the same game every run)."""
BOARD_SIZE = 15
SEED = 7
OUT_DIR = Path("out")
LEARNING_GAME = {"board_size": 6, "win_length": 4}
"""The game the demo learns: small, so that learning shows within seconds."""
LEARNING_GAMES = 64
"""Games stepped together by the vector env."""
LEARNING_UPDATES = 400
"""Gradient steps, one per vector-env step (64 moves each)."""
REPORT_EVERY = 50
"""Updates between the printed win rates."""


def show_the_loop(envs: gymnasium.vector.VectorEnv) -> None:
    """One step of the vector env, printed: what an agent sees and what it gets."""
    observations, _ = envs.reset(seed=SEED)
    masks = envs.action_masks()
    print(
        f"observation: {observations.shape[0]} games of {observations.shape[1:]} "
        "int8 planes (own stones, opponent's, last move, I am black, forbidden)"
    )
    print(f"action mask: {int(masks[0].sum())} legal points of {masks.shape[1]}")
    actions = np.array([np.flatnonzero(mask)[0] for mask in masks])
    _, rewards, terminated, _, _ = envs.step(actions)
    print(
        f"one step: rewards {rewards[:4].tolist()}... (+1 win, -1 loss), "
        f"{int(terminated.sum())} games over"
    )


def learn_against_random(updates: int = LEARNING_UPDATES, seed: int = SEED) -> float:
    """Advantage actor-critic on the vector env against ``random``; prints the win rate
    of the games finished since the last report, and returns the last one."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    envs = gymnasium.make_vec(
        gomoku_env.GYM_ENV_ID,
        num_envs=LEARNING_GAMES,
        opponent="random",
        play_as="random",
        **LEARNING_GAME,
    )
    show_the_loop(envs)
    network = PolicyNetwork(PolicyShape(channels=32, layers=3))
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)
    observations, _ = envs.reset(seed=seed)
    wins = games = 0
    win_rate = 0.0
    started = time.perf_counter()
    for update in range(1, updates + 1):
        scores, values = network(observations)
        policy = torch.distributions.Categorical(
            logits=mask_scores(scores, envs.action_masks())
        )
        actions = policy.sample()
        observations, rewards, terminated, _, _ = envs.step(actions.numpy())
        with torch.no_grad():
            _, next_values = network(observations)
        # A finished game's reward is its whole return: no bootstrap past its end.
        rewards = torch.as_tensor(rewards)
        done = torch.as_tensor(terminated, dtype=torch.float32)
        target = rewards + (1 - done) * next_values
        advantage = (target - values).detach()
        loss = (
            -(policy.log_prob(actions) * advantage).mean()
            + 0.5 * (target - values).pow(2).mean()
            - 0.01 * policy.entropy().mean()
        )
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        wins += int((rewards > 0).sum())
        games += int(terminated.sum())
        if update % REPORT_EVERY == 0:
            win_rate = wins / max(games, 1)
            print(
                f"update {update:4d}: won {win_rate:.0%} of {games} games against "
                f"random ({time.perf_counter() - started:.0f} s)"
            )
            wins = games = 0
    envs.close()
    return win_rate


def play_game(
    players: tuple[str, str] = PLAYERS, board_size: int = BOARD_SIZE, seed: int = SEED
) -> gomoku_env.Board:
    """Play ``players`` (black, white) in the PettingZoo env; the final position."""
    env = gomoku_env.env(board_size=board_size, render_mode="ansi")
    env.reset(seed=seed)
    config = env.unwrapped.config
    black, white = players
    agents = {
        "black_0": make_agent(black, config, seed=seed),
        "white_0": make_agent(white, config, seed=seed + 1),
    }
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(agents[agent].act(observation))
    print(env.render())
    board = env.unwrapped.board
    env.close()
    return board


def main(
    players: tuple[str, str] = PLAYERS,
    board_size: int = BOARD_SIZE,
    out_dir: Path = OUT_DIR,
) -> GameRecord:
    """Play the game, print its result and write ``demo.txt`` and ``demo.gif``."""
    print(f"== A game: {players[0]} (black) against {players[1]} (white)")
    board = play_game(players, board_size)
    record = GameRecord.from_board(board, black=players[0], white=players[1])
    out_dir.mkdir(exist_ok=True)
    record_path = record.save(out_dir / "demo.txt")
    gif_path = save_gif(
        record, out_dir / "demo.gif", options=RenderOptions(cell_size=40)
    )
    print(f"Black: {players[0]}  White: {players[1]}")
    print(f"Result: {final_caption(record) or 'unfinished'}")
    print(f"Game record: {record_path}")
    print(f"GIF: {gif_path.resolve()}")
    return record


if __name__ == "__main__":
    print("== Reinforcement learning on the compiled vector env")
    learn_against_random()
    main()
    print(
        "Next: the quick starts in README.md (PettingZoo, Gymnasium + SB3, playing),\n"
        "      gomoku play (a window) or gomoku serve --open (a browser page)."
    )
