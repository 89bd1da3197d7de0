"""Entry point of the ``gomoku`` command: builds the parser from the subcommand modules.

Each module named in ``SUBCOMMANDS`` defines ``add_parser(subparsers)``, which adds its
parser and sets ``handler`` (a function taking the parsed arguments and returning an exit
code) as a default. Modules are imported when the parser is built, so heavy imports
(torch, pygame) belong inside the handlers.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from gomoku_apps.cli.parsing import CommandParser
from gomoku_env import __version__
from gomoku_env.errors import MissingExtraError, require_extra

SUBCOMMANDS: list[str] = [
    "brain",
    "play",
    "replay",
    "gif",
    "arena",
    "ladder",
    "rate",
    "verify",
    "bench",
    "train",
    "serve",
    "agents",
]


VERB_EXTRAS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "play": (("render", ("pygame",)),),
    "replay": (("render", ("pygame",)),),
    "gif": (("render", ("pygame", "PIL")),),
    "train": (("train", ("torch", "tqdm", "matplotlib")),),
    "ladder": (("plot", ("matplotlib",)),),
    "serve": (("web", ("starlette", "uvicorn", "websockets")),),
}
"""The extras each verb needs (extra, its modules), checked before the verb starts, so
that a missing one is one line naming it, not a traceback after the work is done (the
ladder plots after playing every game; ``--no-plot`` skips that need)."""


def missing_extra(arguments: argparse.Namespace) -> str | None:
    """The one-line error for an extra the chosen verb needs and lacks, or None."""
    needs = VERB_EXTRAS.get(getattr(arguments, "verb", ""), ())
    if getattr(arguments, "no_plot", False):
        needs = tuple(need for need in needs if need[0] != "plot")
    for extra, modules in needs:
        try:
            require_extra(modules, extra, f"gomoku {arguments.verb}")
        except MissingExtraError as error:
            return str(error)
    return None


def build_parser() -> CommandParser:
    """The full ``gomoku`` argument parser."""
    parser = CommandParser(
        prog="gomoku", description="Gomoku environments, agents and tools."
    )
    parser.add_argument("--version", action="version", version=f"gomoku {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module_name in SUBCOMMANDS:
        importlib.import_module(f"gomoku_apps.cli.{module_name}").add_parser(subparsers)
        subparsers.choices[module_name].set_defaults(verb=module_name)
    return parser


def one_line_warning(message: Warning | str, category: type[Warning], *_: Any) -> str:
    """A warning as the command prints it: one line, no source file or line."""
    return f"gomoku: warning: {message}\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``gomoku`` command; returns the exit code."""
    warnings.formatwarning = one_line_warning
    parser = build_parser()
    arguments = parser.parse_args(argv)
    handler = getattr(arguments, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    arguments.command_line = ["gomoku", *(sys.argv[1:] if argv is None else argv)]
    problem = missing_extra(arguments)
    if problem:
        print(f"gomoku: error: {problem}", file=sys.stderr)
        return 2
    # Imported here: `import agents` loads every agent, which `gomoku --help` need not.
    from agents.base import AgentFailedError

    try:
        return int(handler(arguments) or 0)
    except (
        ValueError,
        FileNotFoundError,
        AgentFailedError,
        MissingExtraError,
    ) as error:
        print(f"gomoku: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
