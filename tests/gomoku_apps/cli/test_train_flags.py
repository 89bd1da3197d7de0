"""Every setting of an AlphaZero training run is a flag of ``gomoku train alphazero``."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from gomoku_apps.cli.main import build_parser
from gomoku_apps.cli.train_alphazero import FLAG_SOURCES

WITHOUT_FLAG = {
    ("NetworkConfig", "input_planes"): "the env's observation planes, not a choice",
}
"""Fields that are no flag, and why."""


def _alphazero_destinations() -> set[str]:
    train = build_parser().verbs["train"]
    routes = next(
        action
        for action in train._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    return {action.dest for action in routes.choices["alphazero"]._actions}


def _settings() -> list[tuple[type, str, str]]:
    """(owner, field, flag destination) of every field of the flag sources that holds
    a value rather than another config (a nested config is a flag source itself, or
    the rules' own flags, or the agents' search preset)."""
    return [
        (owner, item.name, prefix.replace("-", "_") + item.name)
        for owner, prefix, _ in FLAG_SOURCES
        for item in dataclasses.fields(owner)
        if not dataclasses.is_dataclass(getattr(owner(), item.name))
    ]


@pytest.mark.parametrize(
    ("owner", "name", "destination"),
    _settings(),
    ids=lambda value: value.__name__ if isinstance(value, type) else value,
)
def test_every_training_setting_has_a_flag(
    owner: type, name: str, destination: str
) -> None:
    if (owner.__name__, name) in WITHOUT_FLAG:
        pytest.skip(WITHOUT_FLAG[owner.__name__, name])
    assert destination in _alphazero_destinations(), f"{owner.__name__}.{name}"


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["alphazero", "--replay-capacity", "1000000000000"], "--replay-capacity"),
        (["alphazero", "--parallel-games", "100000"], "--parallel-games"),
        (["alphazero", "--batch-size", "10000000"], "--batch-size"),
        (["ppo", "--num-envs", "100000"], "--num-envs"),
        (["ppo", "--rollout-steps", "10000000"], "--rollout-steps"),
        (["ppo", "--minibatch", "10000000"], "--minibatch"),
    ],
)
def test_every_size_a_training_flag_allocates_is_bounded(
    argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each of these sized an array or a batch of games before anything checked it."""
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["train", *argv])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert flag in error and "<=" in error
