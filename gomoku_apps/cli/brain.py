"""``gomoku brain AGENT_SPEC``: run one of our agents as a Gomocup brain.

The brain speaks the Gomocup protocol on stdin/stdout, so a tournament manager (or
our own :class:`~agents.gomocup.EngineAgent`) can play it. ``--launcher PATH`` writes a
small executable script that starts this brain, for managers that expect a
``pbrain-NAME`` executable.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from gomoku_apps.cli.options import exit_after_thinking
from gomoku_env.files import write_text_atomically


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``brain`` subcommand."""
    parser = subparsers.add_parser(
        "brain",
        help="run an agent as a Gomocup (Piskvork) brain on stdin/stdout",
        description="Run AGENT_SPEC (e.g. 'random', 'mcts:simulations=400') as a "
        "Gomocup brain: it reads manager commands on stdin and answers on stdout.",
    )
    parser.add_argument("agent", metavar="AGENT_SPEC", help="the agent to play")
    parser.add_argument(
        "--seed", type=int, default=0, metavar="N", help="seeds the agent"
    )
    parser.add_argument(
        "--launcher",
        metavar="PATH",
        help="write an executable script at PATH (name it pbrain-NAME) that runs "
        "this brain, and exit",
    )
    parser.set_defaults(handler=run)


def run(arguments: argparse.Namespace) -> int:
    """Check the spec, then write the launcher or serve the protocol until END."""
    from agents.specs.parse import check_spec, make_agent
    from gomoku_apps.brain.brain import Brain, run_brain
    from gomoku_env import __version__

    spec, seed = arguments.agent, arguments.seed
    check_spec(spec)
    if arguments.launcher:
        path = write_launcher(Path(arguments.launcher), spec, seed)
        print(f"wrote {path}")
        return 0
    about = {
        "name": f"gomoku_env {spec}",
        "version": __version__,
        "author": "gomoku_env",
        "country": "",
    }
    brain = Brain(lambda config: make_agent(spec, config, seed), about)
    with protocol_stdout() as answers:
        run_brain(brain, sys.stdin, answers)
    return exit_after_thinking(brain.wait, 0)


@contextmanager
def protocol_stdout() -> Iterator[TextIO]:
    """Standard output, for protocol lines only: other prints go to stderr meanwhile.

    A line that an agent prints would otherwise reach the manager as an answer.
    """
    answers = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield answers
    finally:
        sys.stdout = answers


def launcher_text(spec: str, seed: int | None) -> str:
    """A POSIX shell script that runs ``gomoku brain spec`` with this Python."""
    command = [sys.executable, "-m", "gomoku_apps.cli.main", "brain", spec]
    if seed is not None:
        command += ["--seed", str(seed)]
    return (
        "#!/bin/sh\n"
        f"# Gomocup brain: gomoku_env agent {spec!r}\n"
        "# (written by `gomoku brain --launcher`)\n"
        f"exec {shlex.join(command)}\n"
    )


def write_launcher(path: Path, spec: str, seed: int | None) -> Path:
    """Write the launcher script at ``path`` atomically and make it executable.

    ``path`` itself is replaced, never what it points to: a symlink, a folder or a
    device there is refused (the path is made absolute, not resolved).
    """
    return write_text_atomically(path.absolute(), launcher_text(spec, seed), mode=0o755)
