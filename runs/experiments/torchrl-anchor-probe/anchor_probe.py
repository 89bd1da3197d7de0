"""How far TorchRL's REINFORCE moves from its warm start in 24 gradient steps, with and
without the anchor: the zoo's warm-start settings on 9x9 (the recipe's network, lr 3e-4,
three updates on each 4,096-move batch, against the curriculum), a 2,000-game warm start
to keep it short, 60,000 env steps; then the KL divergence from the warm start's moves
on the positions of 300 seeded heuristic games.

    python runs/experiments/torchrl-anchor-probe/anchor_probe.py WEIGHT
"""
import sys, copy
from dataclasses import replace
import numpy as np, torch
sys.path.insert(0, ".")  # run from the repository root
from tests.scripts_as_modules import load_script
from agents.training.example_runs import new_network, TrainingEnvs
from agents.training.policy_anchor import PolicyAnchor, kl_from
from agents.training.teacher_games import teacher_games
from agents.ppo.config import TEACHER_PRESET
from gomoku_env.config import GameConfig
weight = float(sys.argv[1])
ex = load_script("examples/torchrl_reinforce.py")
args = ex.Args(seed=1, board_size=9, win_length=5, steps=60000, teacher_games=2000, channels=48, layers=5, border=True,
               learning_rate=3e-4, entropy_weight=0.003, updates_per_batch=3, steps_per_batch=4096, gamma=0.99,
               anchor_weight=weight, eval_games=2, policy_path=f"/tmp/probe/p{weight}.pt")
torch.manual_seed(1); torch.set_num_threads(1)
net = new_network(args); start = PolicyAnchor(net)
envs = TrainingEnvs(args)
ex.train(args, net, envs)
pos = teacher_games(GameConfig(9, 5), replace(TEACHER_PRESET, games=300), np.random.default_rng(7))
planes, masks = torch.as_tensor(pos.planes), torch.as_tensor(pos.masks).bool()
kl = kl_from(start.log_probabilities(planes, masks), PolicyAnchor(net).log_probabilities(planes, masks)).mean()
print(f"weight {weight}: KL(warm start || trained) = {kl:.3f} nats after {envs.env_steps()} env steps; {envs.progress()}")
