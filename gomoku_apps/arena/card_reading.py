"""Reading a rating card (:mod:`gomoku_apps.arena.cards`): size-capped, JSON only,
every field checked for its kind before anything uses it.

A card comes from someone else, so nothing in it is trusted: a wrong kind, a missing
field, a point off the board or a number that is no finite number is a
:class:`~gomoku_apps.arena.cards.CardError` of one line naming the field, such as
``card.json: games[3].seeds: expected two integers from 0 to 2**32 - 1``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from agents.game import COLORS
from agents.scales.anchored_fit import AnchoredRating
from agents.scales.reference import Anchor
from gomoku_apps.arena.cards import (
    CARD_LIMIT,
    CARD_VERSION,
    OPENING_SOURCES,
    CardError,
    CardGame,
    RatingCard,
)
from gomoku_apps.arena.rate import RatingPlan
from gomoku_env.config import GameConfig
from gomoku_env.files import read_text_file
from gomoku_env.notation import parse_moves

SEED_LIMIT = 2**32
"""Agent seeds are 32-bit (:func:`gomoku_apps.arena.runner.game_seeds`)."""


def read_card(path: str | Path) -> RatingCard:
    """The card in the file ``path``, its structure checked.

    Raises:
        FileNotFoundError: no such file.
        CardError: not a regular file, over :data:`~gomoku_apps.arena.cards.CARD_LIMIT`
            bytes, not JSON, another card format version, or a field missing or of the
            wrong kind; one line names the file and the field.
    """
    text = read_text_file(path, "a rating card", CardError, CARD_LIMIT)
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise CardError(f"{path}: not a rating card: JSON nested too deep") from None
    except ValueError as error:
        raise CardError(f"{path}: not a rating card: not JSON ({error})") from None
    try:
        return parse_card(data)
    except CardError as error:
        raise CardError(f"{path}: {error}") from None


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is no number")


class _Fields:
    """A JSON object's fields, each read as one kind, named by its path in errors."""

    def __init__(self, data: object, where: str) -> None:
        if not isinstance(data, dict):
            raise CardError(
                f"{where or 'the file'}: expected an object, got {_kind(data)}"
            )
        self.data, self.where = data, where

    def name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def value(self, key: str) -> Any:
        if key not in self.data:
            raise CardError(f"{self.name(key)}: missing (is this a rating card?)")
        return self.data[key]

    def text(self, key: str) -> str:
        return self._checked(key, lambda v: isinstance(v, str), "a string")

    def integer(self, key: str, minimum: int = 0, limit: float = math.inf) -> int:
        return self._checked(
            key,
            lambda v: _is_integer(v) and minimum <= v < limit,
            f"an integer from {minimum}"
            + ("" if limit == math.inf else f" below {limit}"),
        )

    def number(self, key: str) -> float:
        return float(self._checked(key, _is_number, "a finite number"))

    def optional(self, key: str, read: Any) -> Any:
        return None if self.value(key) is None else read(key)

    def choice(self, key: str, choices: tuple[str | None, ...]) -> Any:
        listed = ", ".join("null" if c is None else repr(c) for c in choices)
        return self._checked(key, lambda v: v in choices, f"one of {listed}")

    def items(self, key: str) -> list[Any]:
        return self._checked(key, lambda v: isinstance(v, list), "a list")

    def object(self, key: str) -> _Fields:
        return _Fields(self.value(key), self.name(key))

    def _checked(self, key: str, test: Any, expected: str) -> Any:
        value = self.value(key)
        if not test(value):
            raise CardError(
                f"{self.name(key)}: expected {expected}, got {_kind(value)}"
            )
        return value


def _is_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return (_is_integer(value) or isinstance(value, float)) and math.isfinite(value)


def _kind(value: object) -> str:
    """A short description of a JSON value for an error line (never the whole value)."""
    if isinstance(value, (dict, list)):
        return f"a {'object' if isinstance(value, dict) else 'list'} of {len(value)}"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def parse_card(data: object) -> RatingCard:
    """The :class:`RatingCard` of a card's parsed JSON; CardError names a bad field."""
    card = _Fields(data, "")
    version = card.value("card_version")
    if version != CARD_VERSION or not _is_integer(version):
        raise CardError(
            f"card_version {_kind(version)}: this package reads version "
            f"{CARD_VERSION} cards"
        )
    config = _rules(card.object("rules"))
    scale = card.object("scale")
    rating = card.object("rating")
    return RatingCard(
        card.text("package_version"),
        _texts(card, "command"),
        card.text("reproduce"),
        scale.text("name"),
        _anchors(scale),
        config,
        card.text("agent"),
        card.integer("seed"),
        _openings(card, config.board_size),
        card.optional("move_time", card.number),
        _plan(card.object("plan")),
        AnchoredRating(
            rating.number("rating"),
            rating.number("low"),
            rating.number("high"),
            rating.number("confidence"),
        ),
        rating.text("report"),
        _games(card, config.board_size),
    )


def _rules(rules: _Fields) -> GameConfig:
    size, length = rules.integer("board_size"), rules.integer("win_length")
    rule = rules.text("rule")
    try:
        return GameConfig(size, length, rule)
    except ValueError as error:
        raise CardError(f"rules: {error}") from None


def _texts(card: _Fields, key: str) -> tuple[str, ...]:
    items = card.items(key)
    if not all(isinstance(item, str) for item in items):
        raise CardError(f"{key}: expected a list of strings")
    return tuple(items)


def _anchors(scale: _Fields) -> tuple[Anchor, ...]:
    anchors = []
    for number, item in enumerate(scale.items("anchors")):
        anchor = _Fields(item, f"scale.anchors[{number}]")
        spec = anchor.text("spec")
        anchors.append(Anchor(spec, anchor.number("rating"), anchor.number("margin")))
    return tuple(anchors)


def _points(text: object, where: str, size: int) -> tuple[int, ...]:
    """Moves in notation, such as ``"e5 d4"``, as actions."""
    if not isinstance(text, str):
        raise CardError(f"{where}: expected moves in notation, got {_kind(text)}")
    try:
        return tuple(parse_moves(text, size))
    except ValueError as error:
        raise CardError(f"{where}: {error}") from None


def _openings(card: _Fields, size: int) -> str | tuple[tuple[int, ...], ...]:
    if isinstance(card.value("openings"), str):
        return card.choice("openings", OPENING_SOURCES)
    listed = card.items("openings")
    return tuple(
        _points(text, f"openings[{number}]", size) for number, text in enumerate(listed)
    )


def _plan(plan: _Fields) -> RatingPlan:
    games = plan.optional("games_per_anchor", lambda key: plan.integer(key, 1))
    margin = plan.optional("margin", plan.number)
    if (games is None) == (margin is None) or (margin is not None and margin <= 0):
        raise CardError(
            "plan: expected games_per_anchor (an integer) or a margin (a number > 0)"
        )
    # A card from before families were met has no spread: its rounds played the two
    # anchors nearest the estimate, which is spread 1.
    spread = plan.integer("spread", 1) if "spread" in plan.data else 1
    return RatingPlan(games, margin, plan.integer("max_games", 1), spread)


def _games(card: _Fields, size: int) -> tuple[CardGame, ...]:
    games = []
    for number, item in enumerate(card.items("games")):
        game = _Fields(item, f"games[{number}]")
        seeds = game.items("seeds")
        if len(seeds) != 2 or not all(
            _is_integer(s) and 0 <= s < SEED_LIMIT for s in seeds
        ):
            raise CardError(
                f"{game.name('seeds')}: expected two integers from 0 to 2**32 - 1"
            )
        games.append(
            CardGame(
                game.integer("index"),
                game.text("anchor"),
                game.choice("anchor_color", COLORS),
                _points(game.value("opening"), game.name("opening"), size),
                (seeds[0], seeds[1]),
                _points(game.value("moves"), game.name("moves"), size),
                game.choice("winner", (*COLORS, None)),
                game.text("reason"),
                game.choice("forfeit", (*COLORS, None)),
            )
        )
    return tuple(games)
