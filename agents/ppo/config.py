"""Every setting of a PPO run, declared once: type, default, range and meaning.

``gomoku train ppo`` makes one flag of each field (in the group its ``flag`` names),
the help from the docstring under it, but for the game's three fields, whose flags are
:class:`GameConfig`'s, as for every command; the teacher games are the fields of
:class:`agents.training.teacher_games.TeacherGamesConfig` (``--teacher-*``), as for
AlphaZero, with this recipe's own preset. This module needs no torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.specs.options import bounded, check_fields
from agents.training.teacher_games import TeacherGamesConfig
from gomoku_env.config import GameConfig, Rule

TEACHER_PRESET = TeacherGamesConfig(
    games=8_000, random_move_probability=0.15, opening_moves=3
)
"""The recipe's teacher games: about 250,000 positions on 9x9, 15% of the moves after
the three random opening moves random."""


@dataclass(frozen=True)
class PPOConfig:
    """A warm start on the teacher games, then PPO against the heuristic."""

    board_size: int = 9
    """the :class:`GameConfig` of every game of the run (the teacher games, PPO's
    games and the closing match), as three fields so that checkpoints hold plain
    numbers and text; checked by ``GameConfig``, whose fields also make the game
    flags, as for every command
    (:func:`gomoku_apps.cli.options.add_rules_arguments`)"""
    win_length: int = GameConfig.win_length
    """see ``board_size``"""
    rule: str = GameConfig.rule.value
    """see ``board_size``; a :class:`Rule` is accepted too, kept as its name"""
    opponent_noise: float = bounded(0.5, minimum=0.0, maximum=1.0, flag="ppo")
    """share of the opponent heuristic's moves played at random when PPO starts"""
    noise_step: float = bounded(0.02, minimum=0.0, maximum=1.0, flag="ppo")
    """after each update the share falls by this while the learner wins more than
    half its training games, and rises by it while it wins less"""
    random_opening: int = bounded(3, minimum=0, maximum=12, flag="ppo")
    """random stones near the centre that start every PPO training game"""
    channels: int = bounded(48, minimum=1, maximum=512, flag="network")
    """width of the network's 3x3 convolutions"""
    layers: int = bounded(5, minimum=1, maximum=40, flag="network")
    """number of 3x3 convolutions"""
    teacher: TeacherGamesConfig = field(default_factory=lambda: TEACHER_PRESET)
    """the teacher games of the warm start (games 0: no warm start)"""
    teacher_epochs: int = bounded(3, minimum=1, flag="teacher")
    """passes over the warm start's positions"""
    teacher_learning_rate: float = bounded(2e-3, above=0.0, flag="teacher")
    """Adam learning rate of the warm start"""
    num_envs: int = bounded(128, minimum=1, flag="ppo")
    """games stepped together during PPO"""
    rollout_steps: int = bounded(32, minimum=1, flag="ppo")
    """env steps per game between PPO updates"""
    epochs: int = bounded(3, minimum=1, flag="ppo")
    """passes over each rollout"""
    minibatch: int = bounded(1024, minimum=1, flag="ppo")
    """samples per gradient step (warm start and PPO)"""
    learning_rate: float = bounded(3e-4, above=0.0, flag="ppo")
    """Adam learning rate of PPO"""
    clip: float = bounded(0.2, above=0.0, flag="ppo")
    """PPO's probability-ratio clip"""
    gamma: float = bounded(0.99, minimum=0.0, maximum=1.0, flag="ppo")
    """discount per learner move"""
    gae_lambda: float = bounded(0.95, minimum=0.0, maximum=1.0, flag="ppo")
    """GAE's lambda"""
    entropy: float = bounded(0.003, minimum=0.0, flag="ppo")
    """weight of the entropy bonus"""
    value_weight: float = bounded(0.5, minimum=0.0, flag="ppo")
    """weight of the value loss (warm start and PPO)"""
    max_grad_norm: float = bounded(1.0, above=0.0, flag="ppo")
    """PPO's gradients are scaled down to at most this norm"""
    env_steps: int = bounded(10_000_000, minimum=1, flag="run")
    """PPO env steps (learner moves) to train for, summed over resumes"""
    cpu_hours: float = bounded(2.0, minimum=0.0, flag="run")
    """stop once training has used this much CPU time, warm start included, summed
    over resumes (0: no limit)"""
    checkpoint_every: int = bounded(100_000, minimum=1, flag="run")
    """env steps between checkpoints (each also keeps the policy of that moment as
    policy-<env steps>.pt, listed in checkpoints.csv: a learning curve)"""
    report_every: int = bounded(20, minimum=1, flag="run")
    """PPO updates between progress reports"""
    seed: int = bounded(0, minimum=0, flag="run")
    """seeds the envs, the teacher and torch"""
    threads: int = bounded(1, minimum=1, flag="run")
    """torch CPU threads (small networks on a busy machine: 1 is fastest)"""

    def __post_init__(self) -> None:
        check_fields(self)
        object.__setattr__(self, "rule", Rule.parse(self.rule).value)
        GameConfig(self.board_size, self.win_length, self.rule)  # checks the three

    @property
    def game(self) -> GameConfig:
        """The rules of every game of the run."""
        return GameConfig(self.board_size, self.win_length, Rule(self.rule))
