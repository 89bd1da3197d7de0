"""The zoo's routes: every way to train that the docs give, as the command a user would
run at a :class:`Budget` (the table's, :data:`BUDGET`, or the CI's, :data:`TINY`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from agents.ppo.config import TEACHER_PRESET, PPOConfig


@dataclass(frozen=True)
class Budget:
    """What every route gets: its game, the learner's env steps, the CPU hours and
    the checkpoints kept."""

    board_size: int = 9
    win_length: int = 5
    learner_steps: int = 1_000_000
    hours: float = 0.5
    checkpoints: int = 8

    @property
    def game(self) -> list[str]:
        return [
            "--board-size",
            str(self.board_size),
            "--win-length",
            str(self.win_length),
        ]


BUDGET = Budget()
BUDGET_HOURS = (0.5, 2.0)
"""The zoo's budgets in CPU hours: the table's first (0.5), and four times that, which
asks whether more compute makes a stronger agent."""


def budget_of(hours: float) -> Budget:
    """The zoo's budget of ``hours`` CPU hours: env steps and checkpoints in
    proportion (1,000,000 steps and 8 checkpoints a half hour), so whichever ends
    first ends both at any budget, and checkpoints stay as many steps apart (a 2 CPU-h
    run that ends on CPU time near a million steps keeps a curve, not one model)."""
    if hours not in BUDGET_HOURS:
        raise ValueError(f"the zoo's budgets are {BUDGET_HOURS} CPU hours, not {hours}")
    scale = hours / BUDGET.hours
    return replace(
        BUDGET,
        hours=hours,
        learner_steps=round(scale * BUDGET.learner_steps),
        checkpoints=round(scale * BUDGET.checkpoints),
    )


def run_folder(out: Path, route: str, seed: int, hours: float) -> Path:
    """Where a run keeps its models: ``OUT/ROUTE-sSEED`` at the table's first budget
    (as before budgets), ``OUT/ROUTE-sSEED-2h`` at 2 CPU hours."""
    suffix = "" if hours == BUDGET.hours else f"-{hours:g}h"
    return out / f"{route}-s{seed}{suffix}"


TINY = Budget(board_size=6, win_length=4, learner_steps=256, hours=0.003, checkpoints=2)
"""The CI's budget: seconds a route (the examples end at their steps, AlphaZero at its
11 seconds)."""

TORCH_POLICY = "python:agents.training.torch_policy:load_agent,path={path}"


@dataclass(frozen=True)
class Route:
    """One way to train, as the docs give it.

    Attributes:
        name: the route's name here (``runs/zoo/<name>-s<seed>``).
        libraries: the distributions whose versions the table names.
        algorithm, scheme: what learns, and against whom.
        command: the command line for a budget, a seed and a run folder (its first
            word ``python`` or ``gomoku``).
        spec: the agent spec of a saved model, ``{path}`` for its file.
        tiny: flags the CI adds to keep its run to seconds (smaller batches).
        seats: env steps the route counts per learner step (2: the AEC examples
            that count both players' moves).
        change: flags that change a route's defaults (a row that measures what
            they get wrong), added to its command.
        snapshots: its models are ``gomoku train`` snapshots (their counters in
            their metadata), not listed in ``checkpoints.csv``.
        checkpoints: the checkpoints it keeps along the table's first budget, where
            its defaults end the run early (the budget's own, otherwise): the curve
            needs five. Other budgets keep them in proportion to theirs.
        warm_settings: flags its ``*_warm_start*`` variants add after
            :func:`warm_start` (settings for a network that starts strong).
    """

    name: str
    libraries: tuple[str, ...]
    algorithm: str
    scheme: str
    command: Callable[[Budget, int, Path], list[str]]
    spec: str = TORCH_POLICY
    tiny: tuple[str, ...] = ()
    seats: int = 1
    change: tuple[str, ...] = ()
    snapshots: bool = False
    checkpoints: int | None = None
    warm_settings: tuple[str, ...] = ()

    def argv(self, budget: Budget, seed: int, folder: Path) -> list[str]:
        """The command with this budget (and the CI's flags at the tiny budget)."""
        tiny = self.tiny if budget == TINY else ()
        if self.checkpoints is not None:
            kept = self.checkpoints * budget.checkpoints // BUDGET.checkpoints
            budget = replace(budget, checkpoints=max(kept, 1))
        return [*self.command(budget, seed, folder), *self.change, *tiny]


def library_example(script: str) -> Callable[[Budget, int, Path], list[str]]:
    """The command of an RL-library example (they share their budget flags)."""

    def command(budget: Budget, seed: int, folder: Path) -> list[str]:
        return [
            "python", f"examples/{script}.py", *budget.game, "--seed", str(seed),
            "--steps", str(2 * budget.learner_steps), "--cpu-hours", str(budget.hours),
            "--checkpoints", str(budget.checkpoints), "--eval-games", "2",
            "--policy-path", str(folder / "policy.pt"),
        ]  # fmt: skip

    return command


def self_play_example(budget: Budget, seed: int, folder: Path) -> list[str]:
    return [
        "python", "examples/aec_selfplay.py", *budget.game, "--seed", str(seed),
        "--games", "100000000", "--steps", str(budget.learner_steps),
        "--cpu-hours", str(budget.hours), "--checkpoints", str(budget.checkpoints),
        "--eval-games", "2", "--out", str(folder),
    ]  # fmt: skip


def sb3_example(budget: Budget, seed: int, folder: Path) -> list[str]:
    return [
        "python", "examples/sb3_maskable_ppo.py", *budget.game, "--seed", str(seed),
        "--steps", str(budget.learner_steps), "--cpu-hours", str(budget.hours),
        "--checkpoints", str(budget.checkpoints),
        "--model-path", str(folder / "model.zip"),
    ]  # fmt: skip


def ppo_recipe(budget: Budget, seed: int, folder: Path) -> list[str]:
    every = max(1, budget.learner_steps // budget.checkpoints)
    return [
        "gomoku", "train", "ppo", *budget.game, "--seed", str(seed),
        "--env-steps", str(budget.learner_steps), "--cpu-hours", str(budget.hours),
        "--checkpoint-every", str(every), "--threads", "1", "--no-progress",
        "--out", str(folder),
    ]  # fmt: skip


def alphazero_recipe(budget: Budget, seed: int, folder: Path) -> list[str]:
    return [
        "gomoku", "train", "alphazero", *budget.game, "--seed", str(seed),
        "--cpu-hours", str(budget.hours), "--threads", "1", "--device", "cpu",
        "--snapshot-every", "1", "--no-progress", "--out", str(folder),
    ]  # fmt: skip


CURRICULUM = "curriculum (anchors of the newest scale near the learner's rating)"
"""The library examples' opponent since the table was made (it was random then)."""
OFF_SCALE = ("--opponent", "random")
"""The CI's 6x6 board has no rating scale for the curriculum's anchors."""
SB3_SPEC = "python:agents.sb3.policy_agent:load_agent,path={path}"
SB3_TINY = ("--num-envs", "4", "--n-steps", "32", "--batch-size", "64",
            "--eval-games", "2")  # fmt: skip
TEACHER_GAMES = TEACHER_PRESET.games
"""The warm start of the ``*_warm_start`` routes: the PPO recipe's teacher games."""
LONG_TEACHER_GAMES = 4 * TEACHER_GAMES
"""The warm start of the ``*_warm_start_32000`` routes: four times the recipe's teacher
games, about 13 CPU-minutes on 9x9, which took the warm start alone from +1960 to +2091
on ``9x9-v1`` (``runs/experiments/warm-start-teacher/``)."""
RECIPE = PPOConfig()


def warm_start(games: int) -> tuple[str, ...]:
    """A warm-start route's change: the PPO recipe's warm start on ``games`` teacher
    games, on the recipe's network (its width, its depth and the edge plane), which
    agrees with the heuristic's best points more often than the examples' smaller
    default network does."""
    return ("--teacher-games", str(games), "--channels", str(RECIPE.channels),
            "--layers", str(RECIPE.layers), "--border")  # fmt: skip


def recipe_settings(updates: str, batch: str, *more: str) -> tuple[str, ...]:
    """The PPO recipe's training settings in an example's own flag names: ``updates``
    for its passes over each batch, ``batch`` for the moves a batch collects."""
    return ("--learning-rate", str(RECIPE.learning_rate),
            "--entropy-weight", str(RECIPE.entropy),
            updates, str(RECIPE.epochs),
            batch, str(RECIPE.num_envs * RECIPE.rollout_steps),
            *more, "--gamma", str(RECIPE.gamma))  # fmt: skip


SB3_RECIPE_NETWORK = (
    "--teacher-games", str(LONG_TEACHER_GAMES),
    "--cnn-channels", str(RECIPE.channels), "--cnn-layers", str(RECIPE.layers),
    "--cnn-border", "--cnn-cell-features", "4",
    "--n-epochs", str(RECIPE.epochs), "--batch-size", str(RECIPE.minibatch),
    "--n-steps", str(RECIPE.num_envs * RECIPE.rollout_steps // 16),
)  # fmt: skip
"""SB3 on the PPO recipe's convolutions (its width, depth and edge plane, then four
features a cell for SB3's linear heads: the default linear layer mixes the board into
128 numbers) after the long warm start, with the recipe's passes, minibatch and
4,096-move batches (16 envs of 256 steps); its learning rate (3e-4), clipping and GAE
are SB3's defaults already."""
RLLIB_WARM_SETTINGS = recipe_settings(
    "--epochs", "--steps-per-iteration", "--minibatch-size", str(RECIPE.minibatch)
)
"""RLlib after the warm start trains with the PPO recipe's settings: the example's
own (learning rate 1e-3, six epochs over 500-move batches, entropy 0.01, made for
random weights) took the warm start from +1985 down to +1605 in the half hour, the
recipe's kept and raised it (+2068; docs/zoo.md)."""
TORCHRL_WARM_SETTINGS = recipe_settings("--updates-per-batch", "--steps-per-batch")
"""TorchRL after the warm start trains with the same settings, in REINFORCE's names:
the example's own (learning rate 3e-4, eight updates on each 100-move batch, entropy
0.01) are made for random weights, as RLlib's were when they undid its warm start."""


TORCHRL_ANCHOR_WEIGHT = 0.1
"""TorchRL's KL weight: 24 gradient steps from a 2,000-game warm start moved its policy
0.925 nats from the warm start without the anchor, 0.245 at 0.1 and 0.020 at 0.3
(``runs/experiments/torchrl-anchor-probe/``): 0.3 all but freezes it, 0.1 lets a
consistent advantage move it and pulls back REINFORCE's noise (a nat or more between
checkpoints of ``torchrl_warm_start_32000``, whose 2 CPU-h fell 200 Elo below its half
hour)."""
TIANSHOU_ANCHOR_WEIGHT = 0.3
"""Tianshou's KL weight, chosen, not tuned: DQN's regression undid every Tianshou warm
start, so its route holds harder than TorchRL's."""
SOFT_Q = ("--soft-q-temperature", "0.1")
"""Tianshou's anchored route reads the network as soft Q-values, so that the Q-values'
softmax it holds near the warm start's is the network's policy and the Q-values start
on the returns' scale (``runs/experiments/tianshou-warm-start-loss/``)."""


def warm_started(route: Route, games: int, suffix: str) -> Route:
    """``route``'s command after the PPO recipe's warm start on ``games`` heuristic
    games, on the recipe's network (:func:`warm_start`), named ``NAME_SUFFIX``."""
    return replace(
        route,
        name=f"{route.name}_{suffix}",
        scheme=f"{route.scheme}, after a warm start on {games} heuristic games on "
        "the PPO recipe's network",
        tiny=(*route.tiny, "--teacher-games", "4"),
        change=(*warm_start(games), *route.warm_settings),
    )


def with_warm_starts(*routes: Route) -> list[Route]:
    """Each library example's route, and beside it ``NAME_warm_start`` (the recipe's
    :data:`TEACHER_GAMES`) and ``NAME_warm_start_32000`` (:data:`LONG_TEACHER_GAMES`)."""
    return [
        variant
        for route in routes
        for variant in (
            route,
            warm_started(route, TEACHER_GAMES, "warm_start"),
            warm_started(route, LONG_TEACHER_GAMES, f"warm_start_{LONG_TEACHER_GAMES}"),
        )
    ]


def anchored(route: Route, games: int, weight: float, *more: str) -> Route:
    """``route`` after the warm start on ``games`` games, its loss holding the policy
    near the warm-started network (``--anchor-weight weight``), with ``more`` flags;
    named ``NAME_anchored_GAMES``."""
    warm = warm_started(route, games, f"anchored_{games}")
    return replace(
        warm,
        scheme=f"{warm.scheme}, held near it (KL weight {weight})",
        change=(*warm.change, *more, "--anchor-weight", str(weight)),
    )


TIANSHOU = Route(
    "tianshou", ("tianshou",), "DQN", CURRICULUM, library_example("tianshou_dqn"),
    seats=2, tiny=OFF_SCALE,
)  # fmt: skip
TORCHRL = Route(
    "torchrl", ("torchrl",), "REINFORCE with a value baseline", CURRICULUM,
    library_example("torchrl_reinforce"), seats=2,
    tiny=("--steps-per-batch", "32", *OFF_SCALE), warm_settings=TORCHRL_WARM_SETTINGS,
)  # fmt: skip

ROUTES = {
    route.name: route
    for route in (
        Route(
            "aec_selfplay", ("torch",), "REINFORCE with a value baseline",
            "self-play, one network in both seats", self_play_example,
            tiny=("--batch-games", "2", "--channels", "8", "--layers", "1"),
        ),
        Route(
            "sb3", ("stable-baselines3", "sb3-contrib"), "MaskablePPO",
            "the curriculum, then a league of its snapshots and the anchors",
            sb3_example, spec=SB3_SPEC, tiny=SB3_TINY, checkpoints=16,  # ends at 400k
        ),
        Route(
            "sb3_warm_start", ("stable-baselines3", "sb3-contrib"), "MaskablePPO",
            "as sb3, after a warm start on 8000 heuristic games", sb3_example,
            spec=SB3_SPEC, tiny=(*SB3_TINY, "--teacher-games", "4"), checkpoints=16,
            change=("--teacher-games", str(TEACHER_GAMES)),
        ),
        Route(
            f"sb3_warm_start_{LONG_TEACHER_GAMES}", ("stable-baselines3", "sb3-contrib"),
            "MaskablePPO",
            f"as sb3, after a warm start on {LONG_TEACHER_GAMES} heuristic games on "
            "the PPO recipe's convolutions (per-cell features)", sb3_example,
            spec=SB3_SPEC, tiny=(*SB3_TINY, "--teacher-games", "4"), checkpoints=16,
            change=SB3_RECIPE_NETWORK,
        ),
        Route(
            "sb3_self_play_to_budget", ("stable-baselines3", "sb3-contrib"),
            "MaskablePPO", "as sb3, the league until the budget ends", sb3_example,
            spec=SB3_SPEC, tiny=SB3_TINY,
            change=("--self-play-steps", "1000000"),
        ),
        *with_warm_starts(
            TIANSHOU,
            TORCHRL,
            Route(
                "rllib", ("ray",), "PPO", CURRICULUM, library_example("rllib_ppo"),
                seats=2, tiny=("--steps-per-iteration", "64", "--minibatch-size",
                               "32", "--epochs", "1", *OFF_SCALE),
                warm_settings=RLLIB_WARM_SETTINGS,
            ),
        ),
        anchored(TORCHRL, LONG_TEACHER_GAMES, TORCHRL_ANCHOR_WEIGHT),
        anchored(TIANSHOU, LONG_TEACHER_GAMES, TIANSHOU_ANCHOR_WEIGHT, *SOFT_Q),
        Route(
            "ppo", ("torch",), "PPO after a warm start on heuristic games",
            "heuristic with a falling share of random moves", ppo_recipe,
            spec="ppo:weights={path}",
            tiny=("--channels", "4", "--layers", "1", "--teacher-games", "2",
                  "--teacher-epochs", "1", "--num-envs", "4", "--rollout-steps", "4",
                  "--minibatch", "16"),
        ),
        Route(
            "alphazero", ("torch",),
            "AlphaZero (self-play searches 100 or 25 simulations; plays at 200)",
            "self-play (no warm start: distillation is off by default)",
            alphazero_recipe,
            spec="alphazero:weights={path}", snapshots=True,
            tiny=("--channels", "8", "--blocks", "1", "--parallel-games", "2",
                  "--teacher-games", "4",
                  "--simulations", "6", "--fast-simulations", "3",
                  "--evaluation-every", "0"),
        ),
    )
}  # fmt: skip
