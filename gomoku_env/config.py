"""Game configuration: board size, win length and rule, validated once.

The configuration is a frozen dataclass so that a board, an env and an agent can share
one instance without any of them changing the game under the others' feet.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gomoku_env.fields import option
from gomoku_env.kernels import FREESTYLE, RENJU, STANDARD

MIN_BOARD_SIZE = 5
MAX_BOARD_SIZE = 25
MIN_WIN_LENGTH = 3


class Rule(str, enum.Enum):
    """How a line of stones wins.

    FREESTYLE: a line of ``win_length`` or more wins.
    STANDARD: exactly ``win_length`` wins; a longer line (an overline) does not.
    RENJU: five only; black wins with exactly five and may not play the forbidden
    points (overline, double four, double three: see :mod:`gomoku_env.renju`), white
    wins with five or more.
    """

    FREESTYLE = "freestyle"
    STANDARD = "standard"
    RENJU = "renju"

    @property
    def code(self) -> int:
        """The small integer the compiled kernels use for this rule (see
        :mod:`gomoku_env.kernels`)."""
        return _RULE_CODES[self]

    @classmethod
    def parse(cls, value: Rule | str) -> Rule:
        """The rule named by ``value``; a clear error lists the accepted names."""
        if isinstance(value, Rule):
            return value
        try:
            return cls(str(value).lower())
        except ValueError:
            accepted = ", ".join(repr(rule.value) for rule in cls)
            raise ValueError(
                f"unknown rule {value!r}; expected one of {accepted}"
            ) from None


_RULE_CODES = {Rule.FREESTYLE: FREESTYLE, Rule.STANDARD: STANDARD, Rule.RENJU: RENJU}
RENJU_WIN_LENGTH = 5


@dataclass(frozen=True)
class GameConfig:
    """The parameters that define a game of Gomoku.

    Each field's ``help`` metadata says what it means; the command line's game flags
    (``--board-size``, ``--win-length``, ``--rule``) are made from these fields.
    ``rule`` may be given as a :class:`Rule` or its name.
    """

    board_size: int = option(
        15, help=f"side of the board, {MIN_BOARD_SIZE} to {MAX_BOARD_SIZE}"
    )
    win_length: int = option(5, help="stones in a row that win")
    rule: Rule = option(Rule.FREESTYLE, help="how a line wins")

    def __post_init__(self) -> None:
        size, length = self.board_size, self.win_length
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"board_size must be an int, got {size!r}")
        if isinstance(length, bool) or not isinstance(length, int):
            raise TypeError(f"win_length must be an int, got {length!r}")
        if not MIN_BOARD_SIZE <= size <= MAX_BOARD_SIZE:
            raise ValueError(
                f"board_size must be between {MIN_BOARD_SIZE} and {MAX_BOARD_SIZE}, "
                f"got {size}"
            )
        if not MIN_WIN_LENGTH <= length <= size:
            raise ValueError(
                f"win_length must be between {MIN_WIN_LENGTH} and board_size ({size}), "
                f"got {length}"
            )
        object.__setattr__(self, "rule", Rule.parse(self.rule))
        if self.rule is Rule.RENJU and length != RENJU_WIN_LENGTH:
            raise ValueError(
                f"renju is played to five in a row: win_length must be "
                f"{RENJU_WIN_LENGTH} under rule 'renju', got {length}"
            )

    @classmethod
    def from_options(
        cls,
        config: GameConfig | None = None,
        board_size: int | None = None,
        win_length: int | None = None,
        rule: Rule | str | None = None,
    ) -> GameConfig:
        """The game an env is asked for: ``config``, or the keyword options (each
        defaulting to the dataclass's), never both.

        Raises:
            TypeError: ``config`` is not a GameConfig.
            ValueError: ``config`` is given together with a keyword option, or an
                option is out of range.
        """
        options = {"board_size": board_size, "win_length": win_length, "rule": rule}
        given = {name: value for name, value in options.items() if value is not None}
        if config is None:
            return cls(**given)
        if not isinstance(config, GameConfig):
            raise TypeError(f"config must be a GameConfig, got {config!r}")
        if given:
            raise ValueError(
                f"give either config or {', '.join(sorted(given))}, not both: "
                f"config={config}, {given}"
            )
        return config

    @property
    def cells(self) -> int:
        """Number of points on the board (and of actions)."""
        return self.board_size * self.board_size
