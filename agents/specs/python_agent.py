"""Your own agent in specs: ``"python:MODULE:ATTRIBUTE[,key=value,...]"``.

``MODULE`` is an importable module (``my_package.my_agents``) or the path of a ``.py``
file (``./my_agent.py``); ``ATTRIBUTE`` is a name in it (dots reach nested names). The
attribute may be:

* an Agent instance (anything with ``act(observation)`` and ``reset(seed=None)``): used
  as it is, shared by every spec that names it; it takes no options;
* a callable (a factory function or an agent class): called with whichever of
  ``config=`` (a :class:`~gomoku_env.GameConfig`) and ``seed=`` it accepts, plus the
  spec's options as keywords. So ``make_agent(config, seed, **options)``, a
  zero-argument function and ``class MyAgent: def __init__(self, seed=None)`` all work.
  A trained SB3 model plays through such a factory that loads it and wraps it in an
  Agent.

The callable must return an Agent; anything else is rejected with a clear error.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from agents.base import Agent
from gomoku_env.config import GameConfig

_FILE_MODULE_PREFIX = "gomoku_user_agent_"


def _import_file(path: Path) -> ModuleType:
    resolved = path.resolve()
    if resolved.is_dir():
        raise FileNotFoundError(
            f"agent file {str(path)!r} is a folder; name a .py file in it "
            "(python:FOLDER/module.py:NAME) or a module (python:package.module:NAME)"
        )
    if not resolved.is_file():
        raise FileNotFoundError(f"agent file {str(path)!r} does not exist")
    module_name = _FILE_MODULE_PREFIX + str(abs(hash(str(resolved))))
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _import_module(module_text: str) -> ModuleType:
    if module_text.endswith(".py") or "/" in module_text or "\\" in module_text:
        return _import_file(Path(module_text))
    try:
        return importlib.import_module(module_text)
    except ModuleNotFoundError as error:
        raise ValueError(f"cannot import module {module_text!r}: {error}") from None


def resolve_target(target: str) -> Any:
    """The object that ``"MODULE:ATTRIBUTE"`` names."""
    module_text, colon, attribute = target.rpartition(":")
    if not colon or not module_text or not attribute:
        raise ValueError(
            f"python agent target {target!r} must be MODULE:ATTRIBUTE, "
            "e.g. my_agents:make_agent or ./my_agent.py:MyAgent"
        )
    value: Any = _import_module(module_text)
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise ValueError(f"{module_text!r} has no attribute {attribute!r}")
        value = getattr(value, part)
    return value


def _accepted_keywords(function: Any) -> set[str] | None:
    """The keyword names ``function`` takes, or None when it takes ``**kwargs``."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return set()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return {
        p.name
        for p in parameters
        if p.kind
        in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }


def load_python_agent(
    config: GameConfig, seed: int | None, target: str | None = None, **options: Any
) -> Agent:
    """Build the agent that a ``python:`` spec names (see the module docstring).

    Args:
        target: ``MODULE:ATTRIBUTE`` or ``FILE.py:ATTRIBUTE``: a class, a factory or
            an agent instance; further ``key=value`` options go to it.
    """
    if target is None:
        raise ValueError("a python agent spec needs a target: python:MODULE:ATTRIBUTE")
    value = resolve_target(target)
    if isinstance(value, Agent) and not isinstance(value, type):
        if options:
            raise ValueError(
                f"{target!r} is an Agent instance, which takes no options "
                f"(got {sorted(options)}); name a factory to pass options"
            )
        return value
    if not callable(value):
        raise TypeError(
            f"{target!r} is {value!r}: expected an Agent instance, an agent class or a "
            "factory function"
        )
    accepted = _accepted_keywords(value)
    context = {"config": config, "seed": seed}
    keywords = {k: v for k, v in context.items() if accepted is None or k in accepted}
    agent = value(**keywords, **options)
    if not isinstance(agent, Agent):
        raise TypeError(
            f"{target!r} returned {agent!r}, which is not an Agent "
            "(it needs act(observation) and reset(seed=None))"
        )
    return agent
