"""Train MaskablePPO on 9×9 Gomoku: against the curriculum, then in a league.

A single file to read top to bottom (CleanRL style). Needs the ``sb3`` extra:
``pip install -e '.[sb3]'``. Run ``python examples/sb3_maskable_ppo.py --help``.

0. With ``--teacher-games N``: a warm start, the PPO recipe's supervised steps on the
   heuristic's moves in N games it plays against itself
   (:mod:`agents.training.teacher_games`, :mod:`agents.ppo.warm_start`). Off by default;
   docs/zoo.md measures what it changes.
1. Against the curriculum (:mod:`agents.curriculum`): each game an anchor of the
   board's rating scale that the learner, at its running rating, is expected to score
   about a third against; the rating is printed after each phase. A game with no
   shipped scale (not 9×9 or 15×15 five in a row) plays the heuristic instead.
2. In a league (:mod:`agents.league`): against frozen snapshots of itself, one taken
   every ``snapshot_every`` finished games, and the curriculum's anchors in
   ``anchor_share`` of the games, which keep rating it.

Every phase trains on ``GomokuSB3VecEnv``: all games step together.

With ``--curve-every N`` it plays the arena every N steps against the opponents of
``--curve-opponents`` (default random, heuristic and ``mcts:simulations=400``) and writes
the learning curve as CSV and PNG (:class:`gomoku_apps.arena.learning_curve.LearningCurve`);
``--cpu-hours H`` ends training after H CPU hours, ``--steps N`` after N env steps of
all phases, and ``--checkpoints K`` saves K models along that budget
(``agents.training.run_budget.RunBudget``): the zoo's runs (docs/zoo.md).

The model is saved, evaluated, and played as an Agent in the PettingZoo AEC env, the
arena and the GUI: ``python:agents.sb3.policy_agent:load_agent,path=<model.zip>``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import gomoku_env
from agents.league import LeagueOpponent, LeagueOptions
from agents.sb3 import (
    CELL_NET_ARCH,
    BudgetCallback,
    GomokuCNN,
    PolicyAgent,
    frozen_policy,
    load_agent,
    teach_heuristic_moves,
    win_rate,
    zip_budget,
)
from agents.specs.flags import parse_dataclass
from agents.specs.parse import make_agent
from agents.training.head_to_head import play_match
from gomoku_apps.arena.learning_curve import LearningCurve
from gomoku_env.config import GameConfig
from gomoku_env.fields import check_fields, option
from gomoku_env.files import write_atomically
from gomoku_env.sb3.vec_env import GomokuSB3VecEnv


@dataclass(frozen=True)
class Args:
    seed: int = option(0, help="seeds the envs, the opponents and torch")
    board_size: int = option(9, help="side of the board")
    win_length: int = option(5, help="stones in a row that win")
    num_envs: int = option(16, help="games played in parallel")
    curriculum_steps: int = option(
        200_000,
        help=(
            "env steps against the curriculum (phase 1: anchors of the board's rating "
            "scale near the learner's running rating)"
        ),
        minimum=0,
    )
    self_play_steps: int = option(
        200_000,
        help=(
            "env steps in the league (phase 2: frozen snapshots of the learner and "
            "the curriculum's anchors)"
        ),
        minimum=0,
    )
    eval_games: int = option(100, help="games of the final evaluation against random")
    snapshot_every: int = option(
        1_000, help="finished games between the league's snapshots", minimum=1
    )
    pool_size: int = option(8, help="snapshots the league keeps", minimum=1)
    anchor_share: float = option(
        0.2,
        help="share of the league's games against the curriculum's anchors",
        minimum=0,
        maximum=1,
    )
    n_steps: int = option(128, help="rollout length per env and PPO update")
    n_epochs: int = option(4, help="passes over each rollout")
    cnn_channels: int = option(32, help="width of the feature extractor's conv layers")
    cnn_layers: int = option(2, help="conv layers of the feature extractor")
    features_dim: int = option(128, help="size of the extracted feature vector")
    cnn_cell_features: int = option(
        0,
        help="features per cell from a 1x1 convolution instead of the linear layer "
        "(0: the linear layer); SB3's heads are then agents.sb3.CELL_NET_ARCH",
        minimum=0,
        maximum=64,
    )
    cnn_border: bool = option(
        False,
        help="add a plane of ones to the input, so the convolutions see the edge",
    )
    batch_size: int = option(512, help="PPO minibatch size")
    learning_rate: float = option(3e-4, help="Adam learning rate")
    teacher_games: int = option(
        0,
        help=(
            "heuristic games whose moves the policy learns first, before phase 1 (0: "
            "no warm start); 8000 is the PPO recipe's"
        ),
        minimum=0,
        maximum=100_000,
    )
    teacher_epochs: int = option(
        3, help="passes over the teacher games' positions", minimum=1, maximum=100
    )
    teacher_learning_rate: float = option(
        2e-3, help="Adam learning rate of the warm start", above=0.0, maximum=1.0
    )
    threads: int = option(
        1, help="torch CPU threads (small networks on a busy machine: 1 is fastest)"
    )
    model_path: str = option(
        "gomoku_maskable_ppo.zip", help="where the trained model is saved"
    )
    cpu_hours: float = option(
        0.0,
        help="stop training once it has used this much CPU time (0: no limit)",
        minimum=0,
        maximum=1000,
    )
    steps: int = option(
        0,
        help=(
            "stop training after this many env steps in all, the phases together (0: "
            "the phases' own steps)"
        ),
        minimum=0,
        maximum=10**10,
    )
    checkpoints: int = option(
        0,
        help=(
            "models saved along the run beside --model-path, evenly spaced in the "
            "budget and listed in checkpoints.csv there "
            "(:class:`agents.training.run_budget.RunBudget`); 0: none"
        ),
        minimum=0,
        maximum=1000,
    )
    curve_every: int = option(
        0, help="env steps between learning-curve evaluations (0: no curve)"
    )
    curve_games: int = option(
        20,
        help="arena games per opponent per curve point (both colours, random openings)",
    )
    curve_opponents: str = option(
        "random;heuristic;mcts:simulations=400",
        help="opponent specs of the curve, separated by ';'",
    )
    curve_csv: str = option(
        "out/sb3_curve.csv", help="where the learning curve's rows are written"
    )
    curve_png: str = option(
        "out/sb3_curve.png", help="where the learning curve is drawn"
    )

    def __post_init__(self) -> None:
        check_fields(self)


def game_options(args: Args) -> dict[str, object]:
    """The env arguments shared by training and evaluation: random seats, CNN layout."""
    return {
        "board_size": args.board_size,
        "win_length": args.win_length,
        "play_as": "random",
        "channels_first": True,
    }


def make_env(args: Args, opponent: object) -> gymnasium.Env:
    """One game against ``opponent``, for evaluation."""
    return gymnasium.make(
        gomoku_env.GYM_ENV_ID, opponent=opponent, **game_options(args)
    )


def make_vec_env(args: Args, opponent: object, seed: int) -> GomokuSB3VecEnv:
    """``num_envs`` games against ``opponent``, stepped together (SB3 VecEnv)."""
    return GomokuSB3VecEnv(
        args.num_envs, opponent=opponent, seed=seed, **game_options(args)
    )


def evaluate(
    model: MaskablePPO, args: Args, opponent: str, games: int, seed: int
) -> float:
    """Fraction of games the greedy policy wins against ``opponent`` (random seats)."""
    return win_rate(model, make_env(args, opponent), games, seed)


class LearningCurveCallback(BaseCallback):
    """Every ``curve_every`` steps, plays the arena against the curve's opponents and
    records the scores."""

    def __init__(self, args: Args) -> None:
        super().__init__()
        self.args = args
        self.config = GameConfig(args.board_size, args.win_length)
        specs = [spec.strip() for spec in args.curve_opponents.split(";")]
        self.curve = LearningCurve(args.curve_csv, specs, args.curve_png)
        self.opponents = {spec: make_agent(spec, self.config, seed=1) for spec in specs}
        self.next_point = 0

    def _on_step(self) -> bool:
        hours = time.process_time() / 3600
        if self.args.curve_every and self.num_timesteps >= self.next_point:
            self.next_point = self.num_timesteps + self.args.curve_every
            self.add_point(hours)
        return True

    def add_point(self, hours: float) -> None:
        """Score the current policy against every opponent and append the row."""
        agent = PolicyAgent(self.model)
        scores = {
            spec: play_match(agent, opponent, self.config, self.args.curve_games).score
            for spec, opponent in self.opponents.items()
        }
        self.curve.add(self.num_timesteps, hours, scores)
        print(f"  curve at {self.num_timesteps} steps, {hours:.2f} CPU h: {scores}")


def make_model(args: Args) -> MaskablePPO:
    """MaskablePPO with the Gomoku CNN, on games against the random opponent."""
    return MaskablePPO(
        "CnnPolicy",
        make_vec_env(args, "random", args.seed),
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        learning_rate=args.learning_rate,
        seed=args.seed,
        policy_kwargs={
            "features_extractor_class": GomokuCNN,
            "features_extractor_kwargs": {
                "features_dim": args.features_dim,
                "channels": args.cnn_channels,
                "layers": args.cnn_layers,
                "cell_features": args.cnn_cell_features,
                "border": args.cnn_border,
            },
            **({"net_arch": CELL_NET_ARCH} if args.cnn_cell_features else {}),
            "normalize_images": False,
            "share_features_extractor": True,
        },
    )


def warm_start(model: MaskablePPO, args: Args) -> float:
    """Phase 0: the policy learns the heuristic's moves (and the value the results) in
    ``teacher_games`` heuristic games, the PPO recipe's warm start on minibatches of
    ``batch_size`` (:func:`agents.sb3.warm_start.teach_heuristic_moves`). Returns how
    often, in the last epoch, its top move was one of the heuristic's best."""
    if args.teacher_games == 0:
        return 0.0
    print(f"phase 0: warm start on {args.teacher_games} heuristic games")
    agreements = teach_heuristic_moves(
        model.policy, GameConfig(args.board_size, args.win_length), args.teacher_games,
        args.teacher_epochs, args.teacher_learning_rate, args.batch_size, args.seed,
    )  # fmt: skip
    for epoch, agreement in enumerate(agreements, 1):
        print(f"  epoch {epoch}: the policy's top move is one of the heuristic's "
              f"best in {agreement:.1%} of positions")  # fmt: skip
    return agreements[-1]


def make_anchors(args: Args) -> Any:
    """The curriculum of the game's newest rating scale, or the heuristic for a game
    with no shipped scale."""
    game = GameConfig(args.board_size, args.win_length)
    try:
        return make_agent("curriculum", game, seed=args.seed)
    except ValueError as error:
        print(f"no curriculum ({error}): the heuristic stands in")
        return make_agent("heuristic", game, seed=args.seed)


def report_rating(anchors: Any) -> None:
    """Print the learner's running rating on the curriculum's scale."""
    if hasattr(anchors, "rating"):
        print(
            f"  the learner's running rating on {anchors.scale}: {anchors.rating:.0f}"
        )


def train_against_curriculum(
    model: MaskablePPO, args: Args, anchors: Any, callbacks: list[BaseCallback]
) -> None:
    name = repr(anchors) if hasattr(anchors, "rating") else "the heuristic"
    print(f"phase 1: against {name}")
    model.set_env(make_vec_env(args, anchors, args.seed + 1))
    model.learn(args.curriculum_steps, callback=callbacks, reset_num_timesteps=False)
    report_rating(anchors)


def train_in_league(
    model: MaskablePPO, args: Args, anchors: Any, callbacks: list[BaseCallback]
) -> None:
    print("phase 2: in a league of frozen snapshots and the curriculum's anchors")
    options = LeagueOptions(
        snapshot_every=args.snapshot_every,
        pool_size=args.pool_size,
        anchor_share=args.anchor_share,
    )
    league = LeagueOpponent(
        GameConfig(args.board_size, args.win_length),
        options,
        snapshot=lambda: frozen_policy(model),
        seed=args.seed,
        anchors=anchors,
    )
    league.add_snapshot(frozen_policy(model))
    model.set_env(make_vec_env(args, league, args.seed + 2))
    model.learn(args.self_play_steps, callback=callbacks, reset_num_timesteps=False)
    print(f"  {league.taken} snapshots taken")
    report_rating(anchors)


def play_as_agent(args: Args) -> None:
    """Load the saved model as an Agent and play it as black in the AEC env."""
    print("the model as an Agent in the PettingZoo AEC env, as black against random:")
    agent = load_agent(path=args.model_path)  # read without unpickling
    aec = gomoku_env.env(
        board_size=args.board_size, win_length=args.win_length, render_mode="ansi"
    )
    aec.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    for name in aec.agent_iter():
        observation, _, terminated, truncated, info = aec.last()
        if terminated or truncated:
            action = None
        elif name == "black_0":
            action = agent.act(observation)
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        aec.step(action)
    print(aec.render())
    print(f"result: {info['reason']}, winner {info['winner']}")
    spec = f"python:agents.sb3.policy_agent:load_agent,path={args.model_path}"
    size = f"--board-size {args.board_size} --win-length {args.win_length}"
    print("the same model through an agent spec, in the arena and the GUI:")
    print(f"  gomoku arena '{spec}' mcts:simulations=200 --games 20 --board-size 9")
    print(f"  gomoku play --black '{spec}' --white human {size}")
    print("and its rating on the reference scale of its board (9x9 or 15x15):")
    print(f"  gomoku rate '{spec}' {size} --margin 50")


def main() -> None:
    args = parse_dataclass(Args, __doc__.splitlines()[0])
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    model = make_model(args)  # the budget next, before the warm start: its CPU counts
    budget = zip_budget(args.steps, args.cpu_hours, args.checkpoints, args.model_path)
    warm_start(model, args)
    curve = LearningCurveCallback(args)
    callbacks = [curve, BudgetCallback(budget)]
    anchors = make_anchors(args)
    for phase in (train_against_curriculum, train_in_league):
        if budget.progress(model.num_timesteps) < 1:
            phase(model, args, anchors, callbacks)
    budget.finish(model)
    print(
        f"trained {model.num_timesteps} env steps in "
        f"{budget.cpu_seconds() / 3600:.3f} CPU hours"
    )
    if args.curve_every:
        curve.add_point(time.process_time() / 3600)
    write_atomically(args.model_path, model.save)
    print(f"saved {args.model_path}")
    rate = evaluate(model, args, "random", args.eval_games, 30_000)
    print(f"final win rate vs random: {rate:.3f}")
    play_as_agent(args)


if __name__ == "__main__":
    main()
