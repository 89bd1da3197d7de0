"""Play one game between two baseline agents, then write it as a GIF and a game record.

Run with ``make demo``. The agents are agent specs (see ``agents/specs.py``): change
BLACK and WHITE below to pit other agents against each other.
"""

from __future__ import annotations

from pathlib import Path

import gomoku_env
from agents.specs import make_agent
from gomoku_env.records import GameRecord
from gomoku_env.render import RenderOptions, save_gif

BLACK = "mcts:simulations=2000"
WHITE = "alphabeta:time=0.3"
BOARD_SIZE = 15
SEED = 7
OUT_DIR = Path("out")


def play_game() -> gomoku_env.Board:
    """Play BLACK against WHITE in the PettingZoo env; the final position."""
    env = gomoku_env.env(board_size=BOARD_SIZE, render_mode="ansi")
    env.reset(seed=SEED)
    config = env.unwrapped.config
    players = {
        "black_0": make_agent(BLACK, config, seed=SEED),
        "white_0": make_agent(WHITE, config, seed=SEED + 1),
    }
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(players[agent].act(observation))
    print(env.render())
    board = env.unwrapped.board
    env.close()
    return board


def main() -> None:
    board = play_game()
    record = GameRecord.from_board(board, black=BLACK, white=WHITE)
    OUT_DIR.mkdir(exist_ok=True)
    record_path = record.save(OUT_DIR / "demo.txt")
    gif_path = save_gif(
        record, OUT_DIR / "demo.gif", options=RenderOptions(cell_size=40)
    )
    print(f"Result: {record.result} ({record.reason}) after {len(record.moves)} moves")
    print(f"Game record: {record_path}")
    print(f"GIF: {gif_path.resolve()}")


if __name__ == "__main__":
    main()
