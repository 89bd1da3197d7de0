"""The game as text: standard notation and the end of a game told in words
(:func:`result_sentence`, the same in the env's picture, the play window, replays and
GIFs: records store a result such as ``white`` and a reason such as ``resign``, shown as
"White (random) wins by resignation after 12 moves"). The board drawn in characters is
:mod:`gomoku_env.board_text`.

Standard Gomoku notation: columns a, b, c… from the left, rows 1, 2, 3… from the bottom.

Action indices count from the top-left corner (index = row * size + col, row 0 at the
top), as the observation planes are laid out; notation counts rows from the bottom, as
players write them. On 15×15 the centre is action 112 = "h8".
"""

from __future__ import annotations

import re

from gomoku_env.config import MAX_BOARD_SIZE
from gomoku_env.errors import NotationError

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"[:MAX_BOARD_SIZE]
_POINT = re.compile(r"([a-z])(\d{1,2})")
_SEPARATORS = re.compile(r"[\s,;]+")


def action_to_notation(action: int, board_size: int) -> str:
    """The notation of ``action`` on a ``board_size`` board, e.g. 112 -> "h8" on 15×15."""
    if not 0 <= action < board_size * board_size:
        raise NotationError(
            f"action {action} is off the {board_size}x{board_size} board"
        )
    row, col = divmod(int(action), board_size)
    return f"{COLUMN_LETTERS[col]}{board_size - row}"


def notation_to_action(text: str, board_size: int) -> int:
    """The action for a point such as "h8" (case-insensitive); a clear error otherwise."""
    match = _POINT.fullmatch(text.strip().lower())
    if match is None:
        raise NotationError(
            f"{text!r} is not a point: expected a column letter and a row number, like 'h8'"
        )
    col = ord(match.group(1)) - ord("a")
    row_number = int(match.group(2))
    if col >= board_size or not 1 <= row_number <= board_size:
        last = COLUMN_LETTERS[board_size - 1]
        raise NotationError(
            f"{text!r} is off the {board_size}x{board_size} board "
            f"(columns a-{last}, rows 1-{board_size})"
        )
    return (board_size - row_number) * board_size + col


def parse_moves(text: str, board_size: int) -> list[int]:
    """Actions for a move list such as "h8 i9 h9" (spaces, commas or semicolons between)."""
    return [
        notation_to_action(token, board_size)
        for token in _SEPARATORS.split(text.strip())
        if token
    ]


def format_moves(actions: list[int], board_size: int) -> str:
    """The move list of ``actions`` in notation, separated by spaces."""
    return " ".join(action_to_notation(action, board_size) for action in actions)


REASON_WORDS = {
    "five": "five in a row",
    "resign": "resignation",
    "board_full": "the board is full",
    "illegal_move": "an illegal move",
    "timeout": "time forfeit",
    "crash": "the opponent's crash",
    "forbidden_overline": "black's forbidden overline",
    "forbidden_double_four": "black's forbidden double four",
    "forbidden_double_three": "black's forbidden double three",
    "no_legal_move": "no legal move for black",
}

NUMBER_WORDS = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
"""Line lengths written as words; a longer line is written in figures ("12 in a row")."""


def reason_words(reason: str, win_length: int = 5) -> str:
    """The words for a record's ``reason`` code; an unknown code is shown as it is.

    The code "five" is any winning line; its words say the game's ``win_length``:

    >>> reason_words("five"), reason_words("five", win_length=4)
    ('five in a row', 'four in a row')
    """
    if reason == "five":
        return f"{NUMBER_WORDS.get(win_length, str(win_length))} in a row"
    return REASON_WORDS.get(reason, reason)


def result_sentence(
    result: str,
    reason: str,
    black: str = "",
    white: str = "",
    *,
    moves: int | None = None,
    win_length: int = 5,
) -> str:
    """The sentence for a finished game: the winner's colour and name, why, and after
    how many moves. The env's caption, the play and replay windows and the last frame
    of a GIF all say the end of a game with it, so they say it alike.

    Args:
        result: "black", "white", "draw" or "unfinished", as in game records.
        reason: the record's reason code (:data:`REASON_WORDS`), or "".
        black, white: the players' names, shown after the winner's colour; "" (an
            env, which does not know them) shows the colour alone.
        moves: the number of moves played, or None to leave it out (a replay's status
            line already counts them).
        win_length: stones in a row that win, for the words of the reason "five".

    >>> result_sentence("white", "resign", "human", "random")
    'White (random) wins by resignation'
    >>> result_sentence("black", "five", moves=9)
    'Black wins by five in a row after 9 moves'
    >>> result_sentence("draw", "board_full", "a", "b")
    'Draw: the board is full'
    >>> result_sentence("unfinished", "", "a", "b")
    'Unfinished'
    """
    if result == "unfinished":
        return "Unfinished"
    why = reason_words(reason, win_length)
    if result == "draw":
        sentence = f"Draw: {why}" if why else "Draw"
    elif result in ("black", "white"):
        winner = black if result == "black" else white
        named = f" ({winner})" if winner else ""
        ending = f" by {why}" if why else ""
        sentence = f"{result.capitalize()}{named} wins{ending}"
    else:
        raise ValueError(
            f"result must be black, white, draw or unfinished, got {result!r}"
        )
    if moves is None:
        return sentence
    return f"{sentence} after {moves} move{'' if moves == 1 else 's'}"
