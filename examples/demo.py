"""Play one game between the package's strongest agents, then write it as a GIF and a
game record.

Run with ``make demo``. The players are agent specs (see ``agents/specs.py``), named by
the one constant PLAYERS: change it to pit other agents against each other. Alpha-beta
with a fraction of a second a move tops both reference ladders (docs/ladder-9x9.md,
docs/ladder-15x15.md); a game between two of them lasts 20–40 moves, a few seconds of
thinking once the search kernels are compiled (the first run compiles them, under a
minute, and caches them).
"""

from __future__ import annotations

from pathlib import Path

import gomoku_env
from agents.specs import make_agent
from gomoku_env.records import GameRecord
from gomoku_env.render import RenderOptions, save_gif
from gomoku_env.render.gif import final_caption

PLAYERS = ("alphabeta:time=0.3", "alphabeta:time=0.3")
"""(black, white): the strongest agents that finish a game well inside a minute."""
BOARD_SIZE = 15
SEED = 7
OUT_DIR = Path("out")


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
    main()
