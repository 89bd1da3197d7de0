"""``gomoku train alphazero|ppo``: train a network, in one run folder, resumably.

The routes start differently. ``alphazero`` learns from its own self-play games alone
unless given ``--teacher-games N``: then it first learns the heuristic's moves in N
teacher games. ``ppo`` first learns the heuristic's moves in 8000 teacher games
(``--teacher-games 0``: none), then plays PPO against the heuristic. Both write into
``--out`` (run the same command again on the same folder to resume a stopped run),
show the same progress bar (or one line per report with ``--no-progress``) and end
with the same lines: what was done, the trained network's file and how to play and
rate it. ``gomoku train …`` without a route is ``gomoku train alphazero …``.

Every training flag is a field of the route's config dataclasses, declared once with
its default, range and docstring (the flag's help): see :mod:`gomoku_apps.cli.training`.
"""

from __future__ import annotations

import argparse

from gomoku_apps.cli import train_alphazero, train_ppo

ROUTES = {"alphazero": train_alphazero, "ppo": train_ppo}
DEFAULT_ROUTE = "alphazero"
"""The route of ``gomoku train`` without one (its flags are the same)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``train`` and its routes (``alphazero``, ``ppo``)."""
    parser = subparsers.add_parser(
        "train",
        help="train an AlphaZero (the default) or a PPO network",
        description=__doc__,
    )
    parser.default_route = DEFAULT_ROUTE
    routes = parser.add_subparsers(
        title="routes", metavar="ROUTE", help="what to train (default: alphazero)"
    )
    for name, route in ROUTES.items():
        route.add_parser(routes)
        routes.choices[name].set_defaults(route=name)
