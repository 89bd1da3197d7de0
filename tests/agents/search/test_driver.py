"""The one driver owns the budget; an evaluator only evaluates."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

import agents.search
from agents.search import SearchOptions, SearchTree, run_searches
from agents.search.driver import check_evaluator, round_size
from gomoku_env import Board, GameConfig
from tests.agents.search.helpers import RANDOM_ROLLOUTS, UniformEvaluator

GAME = GameConfig(board_size=9)
PUCT = SearchOptions(formula="puct", exploration=1.5, leaves_per_round=1)


def fresh_trees(
    count: int, options: SearchOptions = RANDOM_ROLLOUTS
) -> list[SearchTree]:
    trees = [SearchTree(GAME, options, seed=k) for k in range(count)]
    for tree in trees:
        tree.reset(Board.from_moves([40, 41], GAME))
    return trees


def test_none_means_rollouts_and_an_evaluate_method_is_an_evaluator() -> None:
    plain = UniformEvaluator()
    assert check_evaluator(plain) is plain
    assert check_evaluator(None) is None


@pytest.mark.parametrize("evaluator", ["rollout", UniformEvaluator, object()])
def test_what_is_no_evaluator_is_refused(evaluator: object) -> None:
    with pytest.raises(TypeError, match="evaluator"):
        check_evaluator(evaluator)


def test_the_driver_sizes_the_rounds_from_the_budget() -> None:
    (tree,) = fresh_trees(1, replace(RANDOM_ROLLOUTS, leaves_per_round=3))
    assert round_size(tree, rollouts=False, rate=None, seconds_left=None) == 3
    assert round_size(tree, rollouts=True, rate=None, seconds_left=None) == 3
    assert round_size(tree, rollouts=True, rate=1e3, seconds_left=None) == 2**62
    # Under a clock: about 5 ms of rollouts at the last round's rate, at least a batch.
    assert round_size(tree, rollouts=True, rate=1e4, seconds_left=1.0) == 50
    assert round_size(tree, rollouts=True, rate=1e4, seconds_left=1e-4) == 3


def test_a_simulation_budget_is_met_exactly_whatever_the_evaluator() -> None:
    assert run_searches(fresh_trees(2), None, simulations=7) == [7, 7]
    evaluator = UniformEvaluator()
    assert run_searches(fresh_trees(2, PUCT), evaluator, simulations=7) == [7, 7]
    assert evaluator.batch_sizes == [2] * 7  # one call a round serves both trees


def test_until_first_returns_when_one_search_is_done() -> None:
    trees = fresh_trees(2, PUCT)
    evaluator = UniformEvaluator()
    done = run_searches(trees, evaluator, [5, 50], until_first=True)
    assert done[0] == 5 and 5 <= done[1] < 50
    assert evaluator.batch_sizes == [2] * 5


def test_a_time_budget_alone_runs_every_tree() -> None:
    trees = fresh_trees(3, replace(RANDOM_ROLLOUTS, leaves_per_round=2))
    done = run_searches(trees, None, time=0.01)
    assert all(count >= 2 for count in done)


@pytest.mark.parametrize(
    "options, message", [({}, "simulations, time"), ({"simulations": [5]}, "2 trees")]
)
def test_budgets_that_fit_no_tree_are_named(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_searches(fresh_trees(2), None, **options)


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
