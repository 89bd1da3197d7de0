"""AlphaZero for Gomoku: a policy-value network trained by batched self-play.

Only the modules of this package import torch, except :mod:`training_config`, which
declares every knob of a run without it (``gomoku train`` builds its flags from it on
machines without torch). The entry points (the ``alphazero`` agent spec and ``gomoku
train``) check for torch first and name the extra to install. The search is the shared
core in ``agents`` (the same one pure MCTS uses); the network plugs into it as an
evaluator.
"""
