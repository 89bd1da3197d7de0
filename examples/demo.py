"""Play one game between two baseline agents and print it as text with the result.

Run with ``make demo``.
"""

from __future__ import annotations

import gomoku_env
from agents import RandomAgent

BOARD_SIZE = 9
SEED = 7


def main() -> None:
    env = gomoku_env.env(board_size=BOARD_SIZE, render_mode="ansi")
    env.reset(seed=SEED)
    players = {"black_0": RandomAgent(seed=SEED), "white_0": RandomAgent(seed=SEED + 1)}
    for agent in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(players[agent].act(observation))
    print(env.render())
    print(
        f"Result: {info['reason']}, winner {info['winner']} after {info['moves']} moves"
    )
    env.close()


if __name__ == "__main__":
    main()
