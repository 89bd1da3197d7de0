"""``gomoku train ppo``: the learned PPO baseline, a policy network without search.

A warm start on 8000 teacher games by default (``--teacher-*``: the heuristic's games,
which ``train alphazero`` plays only when given ``--teacher-games``), then PPO against
the heuristic on the compiled vector env, until ``--env-steps`` or ``--cpu-hours``
(:mod:`agents.ppo.training`). Run the same command again on the same ``--out`` folder
to resume a stopped run from its checkpoint. With ``--curve-every`` the policy plays
``--curve-games`` arena games against each of ``--curve-opponents`` at the start of
PPO and every that many env steps; the scores go to ``OUT/curve.csv`` and
``curve.png`` (training CPU time leaves these games out).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.ppo.config import TEACHER_PRESET, PPOConfig
from agents.specs.flags import flag_values
from agents.training.teacher_games import TeacherGamesConfig
from gomoku_apps.cli import training
from gomoku_apps.cli.options import add_rules_arguments
from gomoku_env.fields import option
from gomoku_env.files import check_replaceable

ROUTE = "ppo"
GROUPS = {
    "game": "game",
    "run": "run",
    "network": "network (new runs)",
    "teacher": "teacher games (new runs): the warm start learns the heuristic's moves",
    "ppo": "PPO against the heuristic",
    "curve": "learning curve",
}
"""The help's groups: flag group (``option(..., flag=NAME)``) and title."""


@dataclass(frozen=True)
class CurveOptions:
    """The learning curve: arena games of the policy at points of the run."""

    curve_every: int = option(
        0,
        help="env steps between learning-curve points (0: no curve)",
        minimum=0,
        flag="curve",
    )
    curve_games: int = option(
        20,
        help=(
            "arena games per opponent per curve point (the opening book, colours "
            "alternating)"
        ),
        minimum=1,
        flag="curve",
    )
    curve_opponents: str = option(
        "random;heuristic;mcts:simulations=400",
        help="opponent specs of the curve, separated by ';'",
        flag="curve",
    )
    jobs: int = option(
        1,
        help="games at once: worker processes of the curve's games",
        minimum=1,
        flag="curve",
    )


FLAG_SOURCES = [
    (PPOConfig, "", None),
    (TeacherGamesConfig, "teacher-", TEACHER_PRESET),
    (training.RunOptions, "", None),
    (CurveOptions, "", None),
]
"""The dataclasses whose fields are the route's flags: (class, flag prefix, preset)."""


def add_parser(routes: argparse._SubParsersAction) -> None:
    """Register the ``ppo`` route; its flags come from :class:`PPOConfig` (the teacher
    games' with ``--teacher-``), their help from the fields, the game's from
    :class:`~gomoku_env.GameConfig` as for every command."""
    summary = "train the PPO policy (no search)"
    parser, groups = training.add_route_parser(
        routes, ROUTE, summary, __doc__, GROUPS, FLAG_SOURCES
    )
    add_rules_arguments(groups["game"], board_size=PPOConfig.board_size)
    parser.set_defaults(handler=run_training)


def ppo_config(arguments: argparse.Namespace) -> PPOConfig:
    """The :class:`PPOConfig` that the command-line arguments describe."""
    teacher = TeacherGamesConfig(
        **flag_values(TeacherGamesConfig, arguments, prefix="teacher_")
    )
    return PPOConfig(teacher=teacher, **flag_values(PPOConfig, arguments))


def run_training(arguments: argparse.Namespace) -> int:
    """Handler of ``gomoku train ppo``."""
    config = ppo_config(arguments)
    options = training.RunOptions(**flag_values(training.RunOptions, arguments))
    if options.export:
        check_replaceable(options.export)  # refused before the training, not after
    curve = CurveOptions(**flag_values(CurveOptions, arguments))
    out = Path(options.folder(ROUTE, config.board_size))
    with training.claimed_run_folder(out, ROUTE, options.force):
        return _train(config, options, curve, out)


def _train(config: Any, options: training.RunOptions, curve: Any, out: Path) -> int:
    """Train in the claimed folder ``out`` and print the closing lines."""
    from agents.ppo.training import RESULT_FILE, PPORun
    from agents.training.torch_policy import NetworkAgent, save_policy

    run = PPORun(config, out)
    state = "resuming" if run.resumed else "starting"
    print(f"{state} {out}: {run.state.env_steps} env steps so far")
    start = training.cpu_copy(run.network)
    points = CurvePoints(curve, config, out) if curve.curve_every else None
    with training.TrainingProgress(
        config.env_steps, run.state.env_steps, "steps", options.progress
    ) as bar:

        def report(state: Any, row: dict[str, Any]) -> None:
            figures = {name: value for name, value in row.items() if name != "note"}
            bar.report(f"update {state.updates}", state.env_steps, figures,
                       row.get("note"))  # fmt: skip

        state = run.run(report, points, curve.curve_every)
    result = out / RESULT_FILE
    print(
        f"done: {state.env_steps} env steps, {state.updates} updates, "
        f"{state.cpu_hours:.2f} h CPU; files in {out}"
    )
    trained = NetworkAgent(training.cpu_copy(run.network))
    print(
        training.before_and_after(
            trained, NetworkAgent(start), config.game, "greedy moves"
        )
    )
    if options.export:
        save_policy(options.export, run.network, config.game)
        print(f"exported the network to {options.export}")
    print(training.where_to_play(result, ROUTE, config.game))
    return 0


class CurvePoints:
    """Plays the curve's games for a network and adds the row to the curve."""

    def __init__(self, options: CurveOptions, config: PPOConfig, out: Path) -> None:
        from gomoku_apps.arena.learning_curve import LearningCurve
        from gomoku_apps.arena.match import Arena

        self.out = out
        self.config = config
        self.games = options.curve_games
        self.opponents = [spec.strip() for spec in options.curve_opponents.split(";")]
        self.curve = LearningCurve(out / "curve.csv", self.opponents, out / "curve.png")
        self.curve.load_rows()
        self.arena = Arena(
            config.game, openings="book", seed=config.seed, jobs=options.jobs
        )

    def __call__(self, network: Any, state: Any) -> None:
        from agents.training.torch_policy import save_policy

        path = save_policy(
            self.out / "points" / f"{state.env_steps}.pt", network, self.config.game
        )
        scores = {
            spec: self.arena.match(f"ppo:weights={path}", spec, self.games)
            .summary()
            .score
            for spec in self.opponents
        }
        self.curve.add(state.env_steps, state.cpu_hours, scores)
        shown = "  ".join(f"{spec} {score:.2f}" for spec, score in scores.items())
        print(f"curve at {state.env_steps} steps, {state.cpu_hours:.3f} CPU h: {shown}")
