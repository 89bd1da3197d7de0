"""Rating cards: one file with everything a cited rating rests on, for anyone to check.

``gomoku rate ... --card FILE`` writes it; ``gomoku verify FILE``
(:mod:`gomoku_apps.arena.verify`) replays it. A card is JSON, data only (nothing in it
runs when it is read)::

    {
     "card_version": 1,
     "package_version": "0.9.0",
     "command": ["gomoku", "rate", "random", "--board-size", "9", ...],
     "reproduce": "gomoku rate random --board-size 9 ... --seed 0",
     "scale": {"name": "9x9-v1",
               "anchors": [{"spec": "random", "rating": 0.0, "margin": 0.0}, ...]},
     "rules": {"board_size": 9, "win_length": 5, "rule": "freestyle"},
     "agent": "random",
     "seed": 0,
     "openings": "book",
     "move_time": null,
     "plan": {"games_per_anchor": 4, "margin": null, "max_games": 4000, "spread": 3},
     "rating": {"rating": 12.3, "low": -80.1, "high": 104.9, "confidence": 0.95,
                "report": "random on 9x9-v1 ..."},
     "games": [{"index": 0, "anchor": "random", "anchor_color": "white",
                "opening": "e5 d4", "seeds": [2871, 1003], "moves": "e5 d4 f6 ...",
                "winner": "black", "reason": "five", "forfeit": null}, ...]
    }

``openings`` is ``"book"`` or ``"none"`` (the verifier draws the same order from the
seed), or the openings of a file, in the order the run used them. ``seeds`` are the
(black, white) seeds that the runner gave the agents' ``reset`` for that game;
``moves`` are every move, the opening's included, in notation. ``report`` is the
rating as ``gomoku rate`` printed it.

:mod:`gomoku_apps.arena.card_reading` reads a card under a size cap and checks its
structure field by field: a bad file is one line naming the field and what is wrong
(:class:`CardError`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.game import COLORS
from agents.scales.anchored_fit import AnchoredRating
from agents.scales.reference import Anchor
from gomoku_apps.arena.match import Arena
from gomoku_apps.arena.openings import Opening
from gomoku_apps.arena.rate import RatingPlan
from gomoku_apps.arena.rated import RatedAgent, format_rating
from gomoku_apps.arena.runner import game_seeds
from gomoku_env import __version__
from gomoku_env.config import GameConfig
from gomoku_env.files import check_replaceable, write_text_atomically
from gomoku_env.notation import format_moves

CARD_VERSION = 1
"""The card format this package writes and reads."""
CARD_LIMIT = 64 * 1024 * 1024
"""Bytes of a card read at most (a rating of 4000 long games is a few megabytes)."""
OPENING_SOURCES = ("book", "none")
"""The ``--openings`` a card names; the openings of a file are written out."""


class CardError(ValueError):
    """A file that is no rating card this package reads: one line says why."""


@dataclass(frozen=True)
class CardGame:
    """One game of a card: the anchor played, its colour, and how the game went."""

    index: int
    anchor: str
    anchor_color: str
    opening: Opening
    seeds: tuple[int, int]
    moves: tuple[int, ...]
    winner: str | None
    reason: str
    forfeit: str | None


@dataclass(frozen=True)
class RatingCard:
    """A rating as a card holds it: the run that made it and every game."""

    package_version: str
    command: tuple[str, ...]
    reproduce: str
    scale: str
    anchors: tuple[Anchor, ...]
    config: GameConfig
    spec: str
    seed: int
    openings: str | tuple[Opening, ...]
    move_time: float | None
    plan: RatingPlan
    rating: AnchoredRating
    report: str
    games: tuple[CardGame, ...]


def rating_card(
    rated: RatedAgent,
    arena: Arena,
    openings: str,
    plan: RatingPlan,
    command: Sequence[str],
    reproduce: str,
) -> RatingCard:
    """The card of a finished rating run; ``openings`` is the run's ``--openings``."""
    games = []
    for result in rated.games:
        side = 1 if result.black == rated.name else 0  # the anchor's colour
        games.append(
            CardGame(
                result.index,
                (result.black, result.white)[side],
                COLORS[side],
                result.opening,
                game_seeds(arena.seed, result.index),
                result.outcome.moves,
                result.outcome.winner,
                result.outcome.reason,
                result.outcome.forfeit,
            )
        )
    return RatingCard(
        __version__,
        tuple(command),
        reproduce,
        rated.scale.name,
        rated.scale.anchors,
        arena.config,
        rated.spec,
        arena.seed,
        openings if openings in OPENING_SOURCES else tuple(arena.openings),
        arena.move_time_limit,
        plan,
        rated.rating,
        format_rating(rated),
        tuple(games),
    )


def card_text(card: RatingCard) -> str:
    """The card as the JSON text written to its file."""
    size = card.config.board_size
    data = {
        "card_version": CARD_VERSION,
        "package_version": card.package_version,
        "command": list(card.command),
        "reproduce": card.reproduce,
        "scale": {
            "name": card.scale,
            "anchors": [
                {"spec": a.spec, "rating": a.rating, "margin": a.margin}
                for a in card.anchors
            ],
        },
        "rules": {
            "board_size": size,
            "win_length": card.config.win_length,
            "rule": card.config.rule.value,
        },
        "agent": card.spec,
        "seed": card.seed,
        "openings": card.openings
        if isinstance(card.openings, str)
        else [format_moves(list(opening), size) for opening in card.openings],
        "move_time": card.move_time,
        "plan": {
            "games_per_anchor": card.plan.games_per_anchor,
            "margin": card.plan.margin,
            "max_games": card.plan.max_games,
            "spread": card.plan.spread,
        },
        "rating": {
            "rating": card.rating.rating,
            "low": card.rating.low,
            "high": card.rating.high,
            "confidence": card.rating.confidence,
            "report": card.report,
        },
        "games": [_game_data(game, size) for game in card.games],
    }
    return json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def _game_data(game: CardGame, size: int) -> dict[str, Any]:
    return {
        "index": game.index,
        "anchor": game.anchor,
        "anchor_color": game.anchor_color,
        "opening": format_moves(list(game.opening), size),
        "seeds": list(game.seeds),
        "moves": format_moves(list(game.moves), size),
        "winner": game.winner,
        "reason": game.reason,
        "forfeit": game.forfeit,
    }


def check_card_path(path: str | Path, overwrite: bool) -> Path:
    """``path`` if a card may be written there: a ValueError, before any game is
    played, for an existing file (unless ``overwrite``), a directory or a device, or
    a folder that does not exist."""
    path = check_replaceable(path)
    if path.exists() and not overwrite:
        raise ValueError(
            f"{str(path)!r} exists: give another --card file, or --force to replace it"
        )
    if not path.parent.is_dir():
        raise ValueError(
            f"{str(path)!r}: the folder {str(path.parent)!r} does not exist"
        )
    return path


def write_card(path: str | Path, card: RatingCard) -> Path:
    """Write ``card`` to ``path`` atomically (a reader never sees half a card)."""
    return write_text_atomically(path, card_text(card))
