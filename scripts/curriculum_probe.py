"""What the opponent curriculum reads for an agent that does not learn.

Plays ``--games`` games of the Gymnasium env with ``opponent="curriculum"`` (9×9 unless
``--board-size`` says otherwise) and ``--agent`` as the learner in the colour
``--play-as``, and prints the learner's running rating at the end, its mean over the
second half of the games, its score, the anchors it met most and what the opponent
side cost: the CPU time of the env's steps (the anchors' replies, the rules) for each
learner move, beside the learner's own. A fixed agent's running rating should be its
``gomoku rate`` rating; where the two differ, the anchors each one met disagree about
the agent (docs/zoo.md measures one such policy). ``--curriculum`` gives the opponent's
spec with its options, to compare scales or the ``leeway``.

    python scripts/curriculum_probe.py --agent "mcts:simulations=100" --play-as white
    python scripts/curriculum_probe.py --agent heuristic \
        --curriculum "curriculum:scale=9x9-v1,leeway=0"
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout

from agents.specs.parse import make_agent
from gomoku_env import GameConfig
from gomoku_env.fields import check_number
from gomoku_env.gym_env import GomokuEnv


def probe(
    agent_spec: str,
    play_as: str,
    games: int,
    random_opening: int,
    board_size: int,
    curriculum: str = "curriculum",
) -> dict[str, object]:
    """The curriculum's (the opponent spec ``curriculum``) reading of ``agent_spec``
    over ``games`` games."""
    if curriculum.split(":", 1)[0] != "curriculum":
        raise ValueError(f"--curriculum must be a curriculum spec, got {curriculum!r}")
    check_number("games", games, minimum=1, maximum=100_000, integer=True)
    config = GameConfig(board_size)
    env = GomokuEnv(
        config=config,
        opponent=curriculum,
        play_as=play_as,
        random_opening=random_opening,
    )
    learner = make_agent(agent_spec, config, seed=0)
    ratings, scores, anchors = [], [], Counter()
    moves, learner_cpu, env_cpu = 0, 0.0, 0.0
    for game in range(games):
        started = time.thread_time()
        observation, info = env.reset(seed=game)
        env_cpu += time.thread_time() - started
        learner.reset(seed=game)
        over = False
        while not over:
            started = time.thread_time()
            action = learner.act(
                {"observation": observation, "action_mask": info["action_mask"]}
            )
            stepped = time.thread_time()
            observation, reward, terminated, truncated, info = env.step(action)
            env_cpu += time.thread_time() - stepped
            learner_cpu += stepped - started
            moves += 1
            over = terminated or truncated
        ratings.append(info["learner_rating"])
        scores.append((reward + 1) / 2)
        anchors[info["opponent"]] += 1
    return {
        "final_rating": ratings[-1],
        "second_half_rating": round(float(np.mean(ratings[games // 2 :])), 1),
        "score": round(float(np.mean(scores)), 3),
        "anchors": anchors.most_common(4),
        "env_ms_per_learner_move": round(1000 * env_cpu / moves, 2),
        "learner_ms_per_move": round(1000 * learner_cpu / moves, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", required=True, help="the learner's agent spec")
    parser.add_argument("--play-as", default="random", help="black, white or random")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--random-opening", type=int, default=0)
    parser.add_argument("--board-size", type=int, default=9)
    parser.add_argument(
        "--curriculum", default="curriculum", help="the opponent spec, with options"
    )
    args = parser.parse_args()
    result = probe(
        args.agent, args.play_as, args.games, args.random_opening, args.board_size,
        args.curriculum,
    )  # fmt: skip
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
