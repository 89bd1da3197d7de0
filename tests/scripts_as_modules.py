"""Import a script of the repository (examples/, scripts/, benchmarks/: scripts, not
packages) as a module, so that tests call its functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative_path: str) -> ModuleType:
    """The module of ``ROOT / relative_path``, registered in ``sys.modules`` under
    ``<folder>_<stem>`` (dataclasses look their module up while building)."""
    path = ROOT / relative_path
    name = f"{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
