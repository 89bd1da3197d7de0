"""The examples in the arena's and the specs' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "agents.arena",
    "agents.arena.ladder",
    "agents.arena.match",
    "agents.arena.sprt",
    "agents.specs",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
