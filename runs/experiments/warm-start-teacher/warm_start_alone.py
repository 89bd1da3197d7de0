"""The PPO recipe's warm start alone, on a chosen teacher: the experiment's one script.

    python runs/experiments/warm-start-teacher/warm_start_alone.py DEPTH GAMES SEED OUT

trains the recipe's network (48 channels, 5 layers, the edge plane) on GAMES teacher
games of 9x9 labelled by the heuristic (DEPTH 0) or by an alpha-beta search of DEPTH
plies, three epochs as the recipe does, prints the last epoch's agreement and the CPU
seconds, and saves the policy to OUT (a ``torch_policy`` file, for ``gomoku arena``
and ``gomoku rate`` as ``python:agents.training.torch_policy:load_agent,path=OUT``).
"""

import dataclasses
import sys
import time

import torch

from agents.ppo.config import TEACHER_PRESET, PPOConfig
from agents.ppo.warm_start import warm_start
from agents.training.torch_policy import PolicyNetwork, PolicyShape, save_policy

depth, games, seed = (int(word) for word in sys.argv[1:4])
out = sys.argv[4]
torch.set_num_threads(1)
teacher = dataclasses.replace(TEACHER_PRESET, games=games, depth=depth)
recipe = PPOConfig(board_size=9, win_length=5, seed=seed, teacher=teacher)
network = PolicyNetwork(PolicyShape(recipe.channels, recipe.layers, border=True))
started = time.process_time()
losses = warm_start(network, recipe, torch.Generator().manual_seed(seed))
print(
    f"{out}: depth {depth}, {games} games, agreement {losses['agreement']:.3f}, "
    f"policy loss {losses['policy_loss']:.3f}, "
    f"{time.process_time() - started:.0f} CPU s (this process)"
)
save_policy(out, network, recipe.game, trainer="warm start alone")
