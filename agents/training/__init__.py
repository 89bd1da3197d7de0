"""What the learned agents share in training and evaluation.

:mod:`agents.training.teacher_games` labels positions with the classic agents for a new
network (AlphaZero distils them, PPO and SB3 warm-start on them);
:mod:`agents.training.run_budget` is a run's budget of env steps or CPU hours and the
checkpoints saved along it; :mod:`agents.training.head_to_head` plays matches that
measure strength; :mod:`agents.training.torch_policy` is the small torch network (and
its Agent) of PPO and the RL-library examples, whose shared arguments and final
evaluation are :mod:`agents.training.example_runs`, and whose warm start
:mod:`agents.training.policy_anchor` can hold a policy near. This file imports none of them, so
torch loads only with the modules that need it.
"""
