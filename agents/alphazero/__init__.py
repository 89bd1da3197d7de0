"""AlphaZero for Gomoku: a policy-value network trained by batched self-play.

Only the modules of this package import torch. The search is the shared core in
``agents`` (the same one pure MCTS uses); the network plugs into it as an evaluator.
"""

from gomoku_env.extras import require_extra

require_extra(("torch",), "alphazero", "AlphaZero (agents.alphazero)")
