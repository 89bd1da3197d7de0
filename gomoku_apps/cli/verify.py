"""``gomoku verify CARD``: replay a rating card against the shipped anchors.

Example::

    gomoku rate 'mcts:simulations=50' --board-size 9 --games 2 --card rating.json
    gomoku verify rating.json
"""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``verify`` command."""
    parser = subparsers.add_parser(
        "verify",
        help="check a rating card by replaying its games against the anchors",
        description="Read a rating card written by 'gomoku rate --card' and replay "
        "every game: each anchor, built from the shipped scale and seeded as the "
        "card says, must play each of its recorded moves; the rules must end each "
        "game as recorded; the results must give the card's rating. Prints "
        "'verified: ...' (exit 0) or the first game and move that does not match "
        "(exit 1). The rated agent's own moves are only checked to be legal.",
    )
    parser.add_argument("card", metavar="CARD", help="the rating card (JSON) to check")
    parser.set_defaults(handler=run_verify)


def run_verify(arguments: argparse.Namespace) -> int:
    """Replay the card; print the verdict."""
    from agents.scales.stats import format_elo
    from gomoku_apps.arena.card_reading import read_card
    from gomoku_apps.arena.verify import CardMismatchError, verify_card
    from gomoku_env import __version__

    card = read_card(arguments.card)
    try:
        rated = verify_card(card)
    except CardMismatchError as mismatch:
        print(f"not verified: {mismatch}")
        return 1
    print(
        f"verified: {card.spec} {format_elo(rated.rating.rating)} on {card.scale} "
        f"({len(rated.games)} games)"
    )
    if card.package_version != __version__:
        print(
            f"(the card was written by gomoku_env {card.package_version}, replayed "
            f"with {__version__})"
        )
    return 0
