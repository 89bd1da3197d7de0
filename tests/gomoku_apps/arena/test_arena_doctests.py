"""The examples in the arena's and the specs' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "gomoku_apps.arena",
    "gomoku_apps.arena.ladder",
    "gomoku_apps.arena.match",
    "gomoku_apps.arena.sprt",
    "agents.scales.stats",
    "agents.scales.anchored_fit",
    "agents.scales.reference",
    "gomoku_apps.arena.rate",
    "gomoku_apps.cli.parsing",
    "agents.specs.parse",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
