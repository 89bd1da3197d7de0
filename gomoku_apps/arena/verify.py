"""Verifying a rating card: every anchor move replayed, every result and the rating
recomputed, without the rated agent.

Every anchor of a shipped scale is on a work budget, so for its seed it plays one move
in each position. :func:`verify_card` checks that a card (:mod:`gomoku_apps.arena.cards`)
is what ``gomoku rate`` would have written:

- its scale is a shipped version, under that version's rules, and each anchor it lists
  is one of that version's, with the same rating and margin;
- its games are the run that its seed and plan make (:func:`rerun_rating`, the very
  schedule ``gomoku rate`` plays: each game's anchor, colours, opening and seeds), no
  game left out or added;
- each game replays: the anchor, built from the shipped scale (never from the card's
  text) and reset with the game's seed as the runner resets it, plays every one of its
  recorded moves from the recorded position; the rated agent's moves are only checked
  to be legal (that agent is the claimant's, and nobody else can run it); the rules
  judge the end, which must be the card's result;
- the results give the card's rating with the same fit ``gomoku rate`` uses, and the
  same printed report.

What it cannot check is the claimant's agent: that the moves were played by the agent
the card names. A card shows that someone played those moves against the real
anchors, in the games its seed chose, and that they score the rating it claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import zip_longest

from agents.base import Agent, warm_up
from agents.game import COLORS, GameOutcome, play_game
from agents.scales.reference import REFERENCE_SCALES, RatingScale, reference_scale
from agents.scales.stats import format_elo
from agents.specs.parse import make_agent
from gomoku_apps.arena.cards import CardGame, RatingCard
from gomoku_apps.arena.match import Arena
from gomoku_apps.arena.openings import describe
from gomoku_apps.arena.rate import check_rules, rerun_rating
from gomoku_apps.arena.rated import RatedAgent, format_rating
from gomoku_apps.arena.runner import GameResult, GameTask, release_agent
from gomoku_env.notation import action_to_notation, reason_words

RATING_TOLERANCE = 1e-6
"""Elo by which a recomputed rating may differ from the card's (floating point)."""


class CardMismatchError(Exception):
    """The card is not what its replay gives; the message says the first place."""


def verify_card(card: RatingCard) -> RatedAgent:
    """The rating that ``card``'s games give, replayed; CardMismatchError at the first
    scale entry, game, move, result or number that does not match."""
    scale = shipped_scale(card)
    arena = Arena(card.config, "none", card.seed)
    if isinstance(card.openings, str):
        arena = Arena(card.config, card.openings, card.seed)
    else:
        arena.openings = list(card.openings)
    replay = _Replay(card, scale)
    try:
        rated = rerun_rating(arena, card.spec, scale, card.plan, replay.play)
    finally:
        replay.close()
    if len(rated.games) != len(card.games):
        raise CardMismatchError(
            f"the card has {len(card.games)} games; the run its plan and seed "
            f"describe ends after {len(rated.games)}"
        )
    _check_rating(card, rated)
    return rated


def shipped_scale(card: RatingCard) -> RatingScale:
    """The shipped scale the card names, cut to the anchors it played; CardMismatchError
    for another version, other rules, or an anchor that is not the version's."""
    if card.scale not in REFERENCE_SCALES:
        raise CardMismatchError(
            f"the card's scale {card.scale!r} is no scale this package ships "
            f"({', '.join(REFERENCE_SCALES)})"
        )
    shipped = reference_scale(version=card.scale)
    try:
        check_rules(card.config, shipped)
    except ValueError as error:
        raise CardMismatchError(f"the card's rules: {error}") from None
    specs = [anchor.spec for anchor in card.anchors]
    if not specs or len(set(specs)) != len(specs):
        raise CardMismatchError("the card's anchors are empty or name one anchor twice")
    for anchor in card.anchors:
        theirs = [a for a in shipped.anchors if a.spec == anchor.spec]
        if theirs != [anchor]:
            what = (
                f"has rating {theirs[0].rating:g} ± {theirs[0].margin:g} there"
                if theirs
                else "is no anchor of it"
            )
            raise CardMismatchError(
                f"the card's anchor {anchor.spec!r} (rating {anchor.rating:g} ± "
                f"{anchor.margin:g}) {what}: is the card of another version of "
                f"{card.scale}?"
            )
    return shipped.select(specs)


class _Replay:
    """Plays a run's tasks from the card: each game replayed against its anchor."""

    def __init__(self, card: RatingCard, scale: RatingScale) -> None:
        self.card = card
        self.anchor_specs = {anchor.spec for anchor in scale.anchors}
        self.agents: dict[str, Agent] = {}

    def play(self, tasks: Sequence[GameTask]) -> list[GameResult]:
        results = []
        for task in tasks:
            if task.index >= len(self.card.games):
                raise CardMismatchError(
                    f"the card ends after {len(self.card.games)} games; the run its "
                    f"plan and seed describe plays game {task.index} next"
                )
            game = self.card.games[task.index]
            self._check_task(task, game)
            outcome = self._replay(task, game)
            results.append(
                GameResult(task.index, task.black, task.white, task.opening, outcome)
            )
        return results

    def _check_task(self, task: GameTask, game: CardGame) -> None:
        """The card's game is the run's game ``task.index``: anchor, colour, opening,
        seeds."""
        side = 0 if task.black in self.anchor_specs else 1
        anchor = (task.black_spec, task.white_spec)[side]
        size = self.card.config.board_size
        differences = [
            (game.index, task.index, "number"),
            ((game.anchor, game.anchor_color), (anchor, COLORS[side]), "anchor"),
            (game.opening, task.opening, "opening"),
            (game.seeds, task.seeds, "seeds"),
        ]
        for theirs, ours, what in differences:
            if theirs != ours:
                if what == "opening":
                    theirs, ours = describe(theirs, size), describe(ours, size)
                raise CardMismatchError(
                    f"game {task.index}: {what} {theirs} on the card, {ours} in the "
                    f"run that its plan and seed {self.card.seed} describe"
                )

    def _anchor(self, spec: str) -> Agent:
        if spec not in self.agents:
            agent = make_agent(spec, self.card.config)
            warm_up(agent)  # as the runner does, before the agent's first game
            self.agents[spec] = agent
        return self.agents[spec]

    def _replay(self, task: GameTask, game: CardGame) -> GameOutcome:
        """The outcome of the card's game, its anchor moves checked on the way."""
        size, opening = self.card.config.board_size, len(task.opening)
        where = f"game {task.index}"
        if game.moves[:opening] != task.opening:
            raise CardMismatchError(f"{where}: its moves do not begin with its opening")
        side = COLORS.index(game.anchor_color)
        played = list(enumerate(game.moves))[opening:]
        anchor = _CheckedAnchor(
            self._anchor(game.anchor),
            [(p, m) for p, m in played if p % 2 == side],
            len(game.moves),
        )
        claimant = _RecordedMoves(
            [m for p, m in played if p % 2 != side],
            game.reason if game.forfeit == COLORS[1 - side] else "crash",
        )
        players = (anchor, claimant) if side == 0 else (claimant, anchor)
        outcome = play_game(*players, self.card.config, task.opening, seeds=task.seeds)
        if anchor.mismatch is not None:
            ply, move, recorded = anchor.mismatch
            said = (
                "ends there"
                if recorded is None
                else f"says {action_to_notation(recorded, size)}"
            )
            raise CardMismatchError(
                f"{where}, move {ply + 1}: {game.anchor} with seed "
                f"{task.seeds[side]} plays {action_to_notation(move, size)} there; the card "
                f"{said}"
            )
        _check_outcome(where, game, outcome, side, claimant.ran_out, size)
        return outcome

    def close(self) -> None:
        for agent in self.agents.values():
            release_agent(agent)
        self.agents.clear()


class _CheckedAnchor:
    """An anchor that plays its own moves and notes the first that is not the card's
    (then stops the game: it forfeits, and the replay reports the move)."""

    def __init__(self, agent: Agent, recorded: list[tuple[int, int]], end: int) -> None:
        self.agent, self.recorded, self.end = agent, recorded, end
        self.turn = 0
        self.mismatch: tuple[int, int, int | None] | None = None

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed=seed)

    def act(self, observation: dict) -> int:
        move = int(self.agent.act(observation))
        # Past its recorded moves, the card's game ended with this anchor to move.
        ply, recorded = (
            self.recorded[self.turn]
            if self.turn < len(self.recorded)
            else (self.end, None)
        )
        self.turn += 1
        if move != recorded:
            self.mismatch = (ply, move, recorded)
            raise _ReplayStoppedError("the anchor's move is not the card's")
        return move


class _ReplayStoppedError(Exception):
    """Ends a replayed game: at its first mismatch, or where the card's moves end (as
    the forfeit the card records, when it records one)."""

    def __init__(self, message: str, forfeit_reason: str = "crash") -> None:
        super().__init__(message)
        self.forfeit_reason = forfeit_reason


class _RecordedMoves:
    """The rated agent as the card records it: its moves in order, then the card's
    forfeit (the agent itself is not here to play)."""

    def __init__(self, moves: list[int], forfeit_reason: str) -> None:
        self.moves, self.forfeit_reason = moves, forfeit_reason
        self.turn = 0
        self.ran_out = False

    def reset(self, seed: int | None = None) -> None:
        self.turn = 0

    def act(self, observation: dict) -> int:
        if self.turn == len(self.moves):
            self.ran_out = True
            raise _ReplayStoppedError("the card's moves end here", self.forfeit_reason)
        self.turn += 1
        return self.moves[self.turn - 1]


def _check_outcome(
    where: str,
    game: CardGame,
    outcome: GameOutcome,
    side: int,
    ran_out: bool,
    size: int,
) -> None:
    """The replayed game ends where and as the card says."""
    ended = len(outcome.moves)
    if outcome.forfeit == COLORS[1 - side] and not ran_out:
        raise CardMismatchError(
            f"{where}, move {ended + 1}: {action_to_notation(game.moves[ended], size)} is not a "
            "legal move there"
        )
    if ended < len(game.moves):
        raise CardMismatchError(
            f"{where}, move {ended + 1}: the game is over after move {ended} "
            f"({reason_words(outcome.reason)}), yet the card goes on"
        )
    replayed = (outcome.winner, outcome.reason, outcome.forfeit)
    if replayed != (game.winner, game.reason, game.forfeit):
        if ran_out and game.forfeit is None:
            raise CardMismatchError(
                f"{where}, move {ended + 1}: the card's moves end here, but the game "
                "is not over"
            )
        raise CardMismatchError(
            f"{where}: the card's result is {_result(game.winner, game.reason)}; its "
            f"moves give {_result(outcome.winner, outcome.reason)}"
        )


def _check_rating(card: RatingCard, rated: RatedAgent) -> None:
    """The card's rating and report are what its replayed games give."""
    ours, theirs = rated.rating, card.rating
    pairs = zip(
        (theirs.rating, theirs.low, theirs.high, theirs.confidence),
        (ours.rating, ours.low, ours.high, ours.confidence),
        strict=True,
    )
    if any(abs(a - b) > RATING_TOLERANCE for a, b in pairs):
        raise CardMismatchError(
            f"the card's rating {_interval(theirs.rating, theirs.low, theirs.high)} "
            f"is not what its games give: {_interval(ours.rating, ours.low, ours.high)}"
        )
    report = format_rating(rated)
    if card.report != report:
        theirs, ours = card.report.splitlines(), report.splitlines()
        line = next(
            (a for a, b in zip_longest(theirs, ours, fillvalue="") if a != b), ""
        )
        raise CardMismatchError(
            f"the card's report is not what its games print, at {line[:120]!r}"
        )


def _interval(rating: float, low: float, high: float) -> str:
    return f"{format_elo(rating)} ({format_elo(low)} … {format_elo(high)})"


def _result(winner: str | None, reason: str) -> str:
    return f"{winner or 'a draw'} by {reason_words(reason)}"
