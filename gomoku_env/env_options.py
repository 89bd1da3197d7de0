"""The envs' options, declared once: each with its default, its check and its meaning.

:class:`EnvOptions` holds what every env takes (the game, renju's forbidden points, the
openings, the move limit); :class:`LearnerOptions` adds what the single-agent envs
(Gymnasium and vector) take for their learner. Each env builds one of them from its
keyword arguments and reads every option from it, so a default or a check is written
here and nowhere else; the envs' signatures take their defaults from these classes
(``play_as: str = LearnerOptions.play_as``), so that ``help(GomokuEnv)`` still shows
the value. A field's ``help`` metadata says what it means.

``render_mode`` is no field: its choices are each env class's own
``metadata["render_modes"]`` (:func:`check_render_mode`), and the vector env has none.

>>> options = LearnerOptions(GameConfig(9), max_moves=40, play_as="random")
>>> options.stones_before_first_step, options.max_moves
(1, 40)
>>> LearnerOptions(play_as="green")
Traceback (most recent call last):
...
ValueError: unknown play_as 'green'; expected one of ('black', 'white', 'random')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gomoku_env.config import GameConfig
from gomoku_env.fields import check_number, option
from gomoku_env.game_state import FORBIDDEN_OPTIONS, validate_choice
from gomoku_env.openings import check_random_opening, parse_opening

PLAY_AS = ("black", "white", "random")
ILLEGAL_ACTION_POLICIES = ("lose", "raise", "random")
OBSERVATION_DTYPES = ("int8", "uint8", "float32")
"""The planes are 0/1 in each; int8 is the envs' own, uint8 and float32 are copies
for libraries that expect them."""


@dataclass(frozen=True)
class EnvOptions:
    """The options every env shares, checked once when built."""

    game: GameConfig = option(
        default_factory=GameConfig, help="the game: board size, win length and rule"
    )
    forbidden: str = option(
        "mask",
        help="what black's renju forbidden points do: 'mask' leaves them out "
        "of black's action mask and playing one is an illegal move, 'lose' keeps "
        "them in and playing one loses (ignored by the other rules)",
    )
    opening: tuple[int, ...] = option(
        (),
        help="moves played before the first step, as actions or notation text "
        "such as 'h8 i9 h9' (kept as actions)",
    )
    random_opening: int = option(
        0,
        help="stones placed at random near the centre after the opening, "
        "drawn from the generator of reset's seed",
    )
    max_moves: int | None = option(
        None,
        help="stones on the board at which a game that has not ended is "
        "truncated (None: no limit); it must leave a move after the stones "
        "placed before the first step",
    )

    def __post_init__(self) -> None:
        if not isinstance(self.game, GameConfig):
            raise TypeError(f"game must be a GameConfig, got {self.game!r}")
        check_random_opening(self.random_opening)
        opening = tuple(parse_opening(self.opening, self.game))
        object.__setattr__(self, "opening", opening)
        self._check_max_moves()
        validate_choice("forbidden", self.forbidden, FORBIDDEN_OPTIONS)

    @property
    def stones_before_first_step(self) -> int:
        """The most stones an env places before its first step."""
        return len(self.opening) + self.random_opening

    def _check_max_moves(self) -> None:
        """``max_moves`` (None: no limit) must be a stone count from 1 to the board's
        cells that leaves a move after the stones placed before the first step: a
        ValueError (TypeError for a non-int) names it otherwise."""
        if self.max_moves is None:
            return
        cells = self.game.cells
        check_number(
            "max_moves", self.max_moves, minimum=1, maximum=cells, integer=True
        )
        stones = self.stones_before_first_step
        if self.max_moves <= stones:
            raise ValueError(
                f"max_moves {self.max_moves} leaves no move after the {stones} "
                "stones placed before the first step"
            )


@dataclass(frozen=True)
class LearnerOptions(EnvOptions):
    """The options of an env with one learner against an opponent (the Gymnasium and
    vector envs): the shared ones and how the learner sees and plays the game."""

    play_as: str = option(
        "black",
        help="the learner's colour: 'black', 'white' or 'random' (drawn per episode)",
    )
    illegal_action: str = option(
        "lose",
        help="what an illegal learner action does: 'lose' (the episode ends "
        "with -1), 'raise' (an IllegalMoveError, state unchanged) or 'random' (a "
        "random legal move is played instead, reported in info)",
    )
    channels_first: bool = option(
        False, help="observation shape (C, N, N) instead of (N, N, C)"
    )
    observation_dtype: str = option(
        "int8",
        help="dtype of the observation planes: 'int8' (the env's own), "
        "'uint8' or 'float32' (copies, 0 and 1 still)",
    )

    def __post_init__(self) -> None:
        validate_choice("play_as", self.play_as, PLAY_AS)
        validate_choice("illegal_action", self.illegal_action, ILLEGAL_ACTION_POLICIES)
        validate_choice("observation_dtype", self.observation_dtype, OBSERVATION_DTYPES)
        object.__setattr__(self, "channels_first", bool(self.channels_first))
        super().__post_init__()

    @property
    def stones_before_first_step(self) -> int:
        """The opening's stones and the opponent's reply, which may come first."""
        return super().stones_before_first_step + 1


def check_render_mode(render_mode: str | None, render_modes: Sequence[str]) -> None:
    """A ValueError naming ``render_mode`` unless it is None or one of an env class's
    ``render_modes``."""
    if render_mode is not None:
        validate_choice("render_mode", render_mode, tuple(render_modes))
