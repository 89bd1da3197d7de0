"""Options and specs: a setting declared once, and agents named by text.

:mod:`agents.specs.options` types and checks the fields of config dataclasses and the
keyword parameters of agent factories; :mod:`agents.specs.flags` makes command-line
flags from those fields. :mod:`agents.specs.registry` holds the agents by spec name,
:mod:`agents.specs.builtin_specs` registers the built-in ones (with
:mod:`agents.specs.python_agent` for ``python:MODULE:NAME``), and
:mod:`agents.specs.parse` turns ``NAME[:key=value,...]`` into an agent
(:func:`agents.specs.parse.make_agent`).

The parser's names still answer here (``from agents.specs import make_agent``, and the
``agents.specs:make_agent`` entry point of installs made before the parser moved), but
only on first use: importing :mod:`agents.specs.parse` loads every agent, and the budget
and the configs import :mod:`agents.specs.options` from below those agents.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    """A public name of :mod:`agents.specs.parse`, which this imports on first use."""
    if not name.startswith("_"):
        parse = importlib.import_module("agents.specs.parse")
        if name in parse.__all__:
            return getattr(parse, name)
    raise AttributeError(f"module 'agents.specs' has no attribute {name!r}")
