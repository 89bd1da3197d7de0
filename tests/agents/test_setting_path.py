"""How many of our files one spec setting crosses, from the spec text to the kernel.

A run-time trace of ``make_agent("mcts:exploration=1.2345", ...)`` and one move: every
Python frame in ``agents/``, ``gomoku_env/`` or ``gomoku_apps/`` that holds the value
in a local (or returns it), as the float, inside the spec text, or inside a dict,
list or tuple (the kernels' ``SearchSettings`` is a tuple) counts its file. An options
object that carries the value as an attribute is passed along unopened and does not
count; the compiled kernels have no Python frames.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import gomoku_env
from agents.specs.parse import make_agent
from gomoku_env import GameConfig

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("agents", "gomoku_env", "gomoku_apps")
VALUE = 1.2345


def _is_value(item: Any) -> bool:
    if type(item) is float:
        return item == VALUE
    return isinstance(item, str) and str(VALUE) in item


def _holds(item: Any) -> bool:
    if isinstance(item, dict):
        return any(_is_value(value) for value in list(item.values()))
    if isinstance(item, (list, tuple)):
        return any(_is_value(value) for value in item)
    return _is_value(item)


def _files_crossed(spec: str, observation: dict[str, Any]) -> list[str]:
    files: list[str] = []

    def trace(frame: FrameType, event: str, argument: Any) -> Any:
        path = Path(frame.f_code.co_filename)
        if event in ("call", "return") and path.is_relative_to(ROOT):
            name = path.relative_to(ROOT).as_posix()
            values = list(frame.f_locals.values())
            if event == "return":
                values.append(argument)
            crossed = name.startswith(PACKAGES) and any(map(_holds, values))
            if crossed and name not in files:
                files.append(name)
        return trace

    sys.settrace(trace)
    try:
        make_agent(spec, GameConfig(board_size=9), seed=0).act(observation)
    finally:
        sys.settrace(None)
    return files


def test_a_spec_setting_crosses_at_most_three_files() -> None:
    env = gomoku_env.env(board_size=9)
    env.reset(seed=0)
    observation = env.observe("black_0")
    # Compile the kernels first, so that the trace sees one move and not numba.
    make_agent("mcts:simulations=8", GameConfig(board_size=9)).act(observation)
    files = _files_crossed("mcts:exploration=1.2345,simulations=50", observation)
    assert files == [
        "agents/specs/parse.py",
        "gomoku_env/fields.py",
        "agents/search/tree.py",
    ]
