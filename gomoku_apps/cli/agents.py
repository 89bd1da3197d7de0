"""``gomoku agents [NAME]``: every agent spec with every option, its type, default and
meaning, generated from the fields that declare the options."""

from __future__ import annotations

import argparse
import textwrap

from gomoku_apps.cli.parsing import plain_text


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the ``agents`` subcommand."""
    parser = subparsers.add_parser(
        "agents",
        help="list the agent specs and their options",
        description="List every agent that specs accept (NAME[:key=value,...], or "
        "NAME:TARGET[,key=value,...] for python and engine) with its options: type, "
        "default and meaning. With NAME, that agent only.",
    )
    parser.add_argument("name", nargs="?", help="one agent's name, e.g. mcts")
    parser.set_defaults(handler=run)


def run(arguments: argparse.Namespace) -> int:
    """Print the agents' options; an unknown name is an error naming the nearest."""
    from agents.specs import parse as specs

    names = specs.registered_names()
    if arguments.name is not None:
        specs.check_spec(arguments.name)  # an unknown name: ValueError, did you mean
        names = [arguments.name]
    for name in names:
        print(agent_text(name))
    return 0


def agent_text(name: str) -> str:
    """One agent's entry: its usage line, then one line per option."""
    from agents.specs import parse as specs

    lines = [specs.usage(name)]
    for option in specs.option_help(name):
        names = " | ".join((option.name, *option.aliases))
        head = f"  {names} ({option.type}, default {option.default})"
        lines.append(head)
        if option.meaning:
            lines += textwrap.wrap(
                plain_text(option.meaning),
                width=88,
                initial_indent="      ",
                subsequent_indent="      ",
            )
    return "\n".join([*lines, ""])
