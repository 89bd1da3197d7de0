"""How the end of a game is told in words, the same in the play window, replays and GIFs.

Game records store a result (``black``, ``white``, ``draw``) and a short reason
(``five``, ``resign``, ``board_full``…); :func:`result_sentence` turns them into the one
sentence every program shows, such as "White (random) wins by resignation".
"""

from __future__ import annotations

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


def reason_words(reason: str) -> str:
    """The words for a record's ``reason`` code; an unknown code is shown as it is."""
    return REASON_WORDS.get(reason, reason)


def result_sentence(result: str, reason: str, black: str, white: str) -> str:
    """The sentence for a finished game: the winner's colour and name, and why.

    >>> result_sentence("white", "resign", "human", "random")
    'White (random) wins by resignation'
    >>> result_sentence("draw", "board_full", "a", "b")
    'Draw: the board is full'
    >>> result_sentence("unfinished", "", "a", "b")
    'Unfinished'
    """
    if result == "unfinished":
        return "Unfinished"
    why = reason_words(reason)
    if result == "draw":
        return f"Draw: {why}" if why else "Draw"
    if result not in ("black", "white"):
        raise ValueError(
            f"result must be black, white, draw or unfinished, got {result!r}"
        )
    winner = black if result == "black" else white
    ending = f" by {why}" if why else ""
    return f"{result.capitalize()} ({winner}) wins{ending}"
