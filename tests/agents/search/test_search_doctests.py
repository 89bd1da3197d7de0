"""The examples in the search core's and the MCTS agent's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["agents.search", "agents.search.driver", "agents.search.mcts"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
