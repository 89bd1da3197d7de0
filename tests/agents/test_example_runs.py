"""The library examples' shared command line and final evaluation."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

import gomoku_env
from agents.example_runs import ExampleArgs, evaluate_policy_file
from agents.flags import parse_dataclass
from agents.torch_policy import PolicyNetwork, save_policy
from gomoku_env.action_counter import IllegalActionCounter


@dataclass(frozen=True)
class Args(ExampleArgs):
    learning_rate: float = 1e-3
    """a field of one example"""


def test_options_cover_shared_and_own_fields(capsys: pytest.CaptureFixture) -> None:
    argv = ["--board-size", "7", "--learning-rate", "0.5", "--policy-path", "p"]
    args = parse_dataclass(Args, "test", argv)
    assert (args.board_size, args.learning_rate, args.policy_path) == (7, 0.5, "p")
    assert args.config == gomoku_env.GameConfig(7, 4)
    with pytest.raises(SystemExit):
        parse_dataclass(Args, "test", ["--help"])
    # Help of the subclass's own field and of an inherited one, from their docstrings.
    assert "a field of one example" in capsys.readouterr().out


def test_evaluation_plays_the_saved_file_and_sums_the_counters(tmp_path: Path) -> None:
    config = gomoku_env.GameConfig(5, 4)
    path = str(save_policy(tmp_path / "p.pt", PolicyNetwork(), config))
    counters = [IllegalActionCounter(gomoku_env.env(board_size=5)) for _ in range(2)]
    counters[0].actions, counters[1].actions, counters[1].illegal_actions = 3, 4, 1
    result = evaluate_policy_file(path, config, games=4, seed=0, counters=counters)
    assert result.wins + result.draws + result.losses == 4
    assert 0 <= result.score_vs_random <= 1
    assert (result.env_actions, result.illegal_actions) == (7, 1)
    assert result.policy_path == path
