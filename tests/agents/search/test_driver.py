"""The one driver and the evaluator seam: each evaluator runs its own rounds."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path

import pytest

import agents.search
from agents.search import (
    BatchedRounds,
    RolloutEvaluator,
    SearchConfig,
    SearchTree,
    run_searches,
    search_rounds,
)
from gomoku_env import Board, GameConfig
from tests.agents.search.helpers import RANDOM_ROLLOUTS, UniformEvaluator

GAME = GameConfig(board_size=9)
PUCT = SearchConfig(formula="puct", exploration=1.5)


class CountingRounds:
    """A rollout evaluator of one's own: counts the rounds the driver asks for."""

    formula = "uct"

    def __init__(self) -> None:
        self.rounds: list[list[int]] = []

    def round_simulations(self, tree, leaves_per_round, rate, seconds_left) -> int:
        return 3

    def run_round(
        self, trees: Sequence[SearchTree], simulations: Sequence[int], leaves: int
    ) -> None:
        self.rounds.append(list(simulations))
        for tree, count in zip(trees, simulations, strict=True):
            tree.play_rollouts(False, count, leaves)


def fresh_trees(count: int, config: SearchConfig | None = None) -> list[SearchTree]:
    trees = [SearchTree(GAME, config, seed=k) for k in range(count)]
    for tree in trees:
        tree.reset(Board.from_moves([40, 41], GAME))
    return trees


def test_an_evaluate_method_is_wrapped_once_and_rollouts_run_their_own() -> None:
    plain = UniformEvaluator()
    rounds = search_rounds(plain)
    assert isinstance(rounds, BatchedRounds) and rounds.evaluator is plain
    assert rounds.formula == "puct"
    assert search_rounds(RANDOM_ROLLOUTS) is RANDOM_ROLLOUTS
    assert RANDOM_ROLLOUTS.formula == "uct"
    assert search_rounds(rounds) is rounds


@pytest.mark.parametrize("evaluator", [None, "rollout", RolloutEvaluator, object()])
def test_what_is_no_evaluator_is_refused(evaluator: object) -> None:
    with pytest.raises(TypeError, match="evaluator"):
        search_rounds(evaluator)


def test_the_evaluator_sizes_and_runs_the_rounds() -> None:
    counting = CountingRounds()
    assert run_searches(fresh_trees(2), counting, simulations=7) == [7, 7]
    assert counting.rounds == [[3, 3], [3, 3], [1, 1]]


def test_until_first_returns_when_one_search_is_done() -> None:
    trees = fresh_trees(2, PUCT)
    evaluator = UniformEvaluator()
    done = run_searches(trees, evaluator, [5, 50], leaves_per_round=1, until_first=True)
    assert done[0] == 5 and 5 <= done[1] < 50
    assert evaluator.batch_sizes == [2] * 5  # one call a round serves both trees


def test_a_time_budget_alone_runs_every_tree() -> None:
    done = run_searches(fresh_trees(3), RANDOM_ROLLOUTS, time=0.01, leaves_per_round=2)
    assert all(count >= 2 for count in done)


@pytest.mark.parametrize(
    "options, error, message",
    [
        ({}, ValueError, "simulations, time"),
        ({"simulations": 0}, ValueError, "simulations"),
        ({"simulations": [5]}, ValueError, "2 trees"),
        ({"time": float("nan")}, ValueError, "time"),
        ({"time": float("inf")}, ValueError, "time"),
        ({"simulations": 5, "leaves_per_round": 0}, ValueError, "leaves_per_round"),
        ({"simulations": True}, TypeError, "simulations"),
    ],
)
def test_bad_budgets_are_named(options: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        run_searches(fresh_trees(2), RANDOM_ROLLOUTS, **options)


def test_the_search_modules_import_in_one_direction() -> None:
    package = Path(agents.search.__file__).parent
    imports = {
        path.stem: {
            node.module.rsplit(".", 1)[-1]
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("agents.search.")
        }
        for path in package.glob("*.py")
        if path.stem != "__init__"
    }

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(
            module == goal
            or (module not in seen and reaches(module, goal, seen | {module}))
            for module in imports.get(start, ())
        )

    assert not [module for module in imports if reaches(module, module, set())]


@pytest.mark.parametrize(
    "field", ["exploration", "fpu", "virtual_loss", "dirichlet_alpha"]
)
@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_the_config_refuses_nan_and_infinity(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        SearchConfig(**{field: value})
