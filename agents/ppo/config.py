"""Every setting of a PPO run, declared once: type, default, range and meaning.

``gomoku train ppo`` makes one flag of each field (in the group its ``flag`` names),
the help from the docstring under it, but for the game's three fields, whose flags are
:class:`GameConfig`'s, as for every command; the teacher games are the fields of
:class:`agents.training.teacher_games.TeacherGamesConfig` (``--teacher-*``), as for
AlphaZero, with this recipe's own preset. This module needs no torch.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.training.teacher_games import TeacherGamesConfig
from gomoku_env.config import GameConfig, Rule
from gomoku_env.fields import check_fields, option

TEACHER_PRESET = TeacherGamesConfig(
    games=8_000, random_move_probability=0.15, opening_moves=3
)
"""The recipe's teacher games: about 250,000 positions on 9x9, 15% of the moves after
the three random opening moves random."""


@dataclass(frozen=True)
class PPOConfig:
    """A warm start on the teacher games, then PPO against the heuristic."""

    board_size: int = option(
        9,
        help=(
            "the :class:`GameConfig` of every game of the run (the teacher games, "
            "PPO's games and the closing match), as three fields so that checkpoints "
            "hold plain numbers and text; checked by ``GameConfig``, whose fields "
            "also make the game flags, as for every command "
            "(:func:`gomoku_apps.cli.options.add_rules_arguments`)"
        ),
    )
    win_length: int = option(GameConfig.win_length, help="see ``board_size``")
    rule: str = option(
        GameConfig.rule.value,
        help="see ``board_size``; a :class:`Rule` is accepted too, kept as its name",
    )
    opponent_noise: float = option(
        0.5,
        help="share of the opponent heuristic's moves played at random when PPO starts",
        minimum=0.0,
        maximum=1.0,
        flag="ppo",
    )
    noise_step: float = option(
        0.02,
        help=(
            "after each update the share falls by this while the learner wins more "
            "than half its training games, and rises by it while it wins less"
        ),
        minimum=0.0,
        maximum=1.0,
        flag="ppo",
    )
    random_opening: int = option(
        3,
        help="random stones near the centre that start every PPO training game",
        minimum=0,
        maximum=12,
        flag="ppo",
    )
    channels: int = option(
        48,
        help="width of the network's 3x3 convolutions",
        minimum=1,
        maximum=512,
        flag="network",
    )
    layers: int = option(
        5, help="number of 3x3 convolutions", minimum=1, maximum=40, flag="network"
    )
    teacher: TeacherGamesConfig = option(
        help="the teacher games of the warm start (games 0: no warm start)",
        default_factory=lambda: TEACHER_PRESET,
    )
    teacher_epochs: int = option(
        3, help="passes over the warm start's positions", minimum=1, flag="teacher"
    )
    teacher_learning_rate: float = option(
        2e-3, help="Adam learning rate of the warm start", above=0.0, flag="teacher"
    )
    num_envs: int = option(
        128,
        help="games stepped together during PPO",
        minimum=1,
        maximum=4096,
        flag="ppo",
    )
    rollout_steps: int = option(
        32,
        help="env steps per game between PPO updates",
        minimum=1,
        maximum=65_536,
        flag="ppo",
    )
    epochs: int = option(3, help="passes over each rollout", minimum=1, flag="ppo")
    minibatch: int = option(
        1024,
        help="samples per gradient step (warm start and PPO)",
        minimum=1,
        maximum=65_536,
        flag="ppo",
    )
    learning_rate: float = option(
        3e-4, help="Adam learning rate of PPO", above=0.0, flag="ppo"
    )
    clip: float = option(
        0.2, help="PPO's probability-ratio clip", above=0.0, flag="ppo"
    )
    gamma: float = option(
        0.99, help="discount per learner move", minimum=0.0, maximum=1.0, flag="ppo"
    )
    gae_lambda: float = option(
        0.95, help="GAE's lambda", minimum=0.0, maximum=1.0, flag="ppo"
    )
    entropy: float = option(
        0.003, help="weight of the entropy bonus", minimum=0.0, flag="ppo"
    )
    value_weight: float = option(
        0.5,
        help="weight of the value loss (warm start and PPO)",
        minimum=0.0,
        flag="ppo",
    )
    max_grad_norm: float = option(
        1.0,
        help="PPO's gradients are scaled down to at most this norm",
        above=0.0,
        flag="ppo",
    )
    env_steps: int = option(
        10_000_000,
        help="PPO env steps (learner moves) to train for, summed over resumes",
        minimum=1,
        flag="run",
    )
    cpu_hours: float = option(
        2.0,
        help=(
            "stop once training has used this much CPU time, warm start included, "
            "summed over resumes (0: no limit)"
        ),
        minimum=0.0,
        flag="run",
    )
    checkpoint_every: int = option(
        100_000,
        help=(
            "env steps between checkpoints (each also keeps the policy of that moment"
            " as policy-<env steps>.pt, listed in checkpoints.csv: a learning curve)"
        ),
        minimum=1,
        flag="run",
    )
    report_every: int = option(
        20, help="PPO updates between progress reports", minimum=1, flag="run"
    )
    seed: int = option(
        0, help="seeds the envs, the teacher and torch", minimum=0, flag="run"
    )
    threads: int = option(
        1,
        help="torch CPU threads (small networks on a busy machine: 1 is fastest)",
        minimum=1,
        flag="run",
    )

    def __post_init__(self) -> None:
        check_fields(self)
        object.__setattr__(self, "rule", Rule.parse(self.rule).value)
        GameConfig(self.board_size, self.win_length, self.rule)  # checks the three

    @property
    def game(self) -> GameConfig:
        """The rules of every game of the run."""
        return GameConfig(self.board_size, self.win_length, Rule(self.rule))
