"""What an agent's search shows while it thinks and after it moved, as JSON for the page.

The page draws the same data as the pygame overlays (:class:`gomoku_env.render.Overlay`):
a heat map over the points, a value in [-1, 1] for the side to move, and a caption; it
adds the principal variation as points. The data comes from what the agents already
keep for overlays and logs:

- tree searches (MCTS, AlphaZero: anything with a ``tree`` like
  :class:`agents.search.SearchTree`) are read *while* they search: their root visits,
  root value and principal variation, sampled from another thread. The search runs in
  compiled code without the GIL, so a sample may mix two rounds; it is a picture of
  the search in progress, and a sample that cannot be read is skipped. After the move,
  ``last_summary`` gives the exact final figures.
- pattern agents (heuristic, alpha-beta) report after the move (``last_report``): the
  line they expect, and their score in words (:func:`describe_report`: "wins in 3",
  "makes an open four, blocks a three", "ahead" with a value in [-1, 1]), never the raw
  pattern score, whose digits mean nothing to a person.
- agents that keep nothing (random, engines) show no overlay.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from agents.classic.alphabeta_search import WIN_SCORE, WIN_THRESHOLD
from agents.classic.reports import SearchReport
from agents.patterns import shapes
from agents.patterns.point_shapes import line_shape
from gomoku_env.board import Board
from gomoku_env.kernels import other_color
from gomoku_env.notation import action_to_notation
from gomoku_env.render.overlay import Overlay

Insight = dict[str, Any]
"""JSON-able: ``heat`` (per point, scaled to [-1, 1], or None), ``value`` (for the side
to move, or None), ``pv`` (points in notation), ``text`` (a caption)."""


def overlay_insight(overlay: Overlay, board_size: int, pv: list[int]) -> Insight:
    """The JSON form of ``overlay`` plus a principal variation (actions)."""
    heat = overlay.heat_for(board_size)
    return {
        "heat": None if heat is None else [round(float(x), 3) for x in heat],
        "value": overlay.value,
        "pv": [action_to_notation(int(move), board_size) for move in pv],
        "text": overlay.text or "",
    }


def _tree_insight(
    visits: np.ndarray, value: float, pv: list[int], caption: str, board_size: int
) -> Insight | None:
    if visits.sum() <= 0:
        return None
    overlay = Overlay(
        heatmap=visits.astype(np.float64),
        value=float(np.clip(value, -1.0, 1.0)),
        text=caption,
    )
    return overlay_insight(overlay, board_size, pv)


def live_insight(agent: object, board_size: int) -> Insight | None:
    """A sample of the search that ``agent`` is running now, or None if it shows none.

    Safe to call from another thread while the agent searches: a sample that fails
    to read (the tree being reset under it) gives None.
    """
    tree = getattr(agent, "tree", None)
    if tree is None or not hasattr(tree, "visit_counts"):
        return None
    try:
        visits = tree.visit_counts()
        value = tree.root_value()
        pv = tree.principal_variation()
    except (ValueError, IndexError):
        return None
    total = int(visits.sum())
    return _tree_insight(visits, value, pv, f"{total} visits so far", board_size)


POSITION_SCALE = 20_000
"""The pattern value (an alpha-beta score short of a win) that reads as value
tanh(1) ≈ 0.76: about what an open three and its follow-ups are worth on the board
(:data:`agents.patterns.point_shapes.SHAPE_SCORES`), a clear but undecided lead."""
SEARCH_REASONS = {"search": "", "defence": "defends against a forced win"}
"""What an alpha-beta reason adds to the caption (VCF wins and the opening have their
own words)."""


def describe_report(
    report: SearchReport, made: str = "", blocked: str = ""
) -> tuple[str, float | None]:
    """The caption and value (for the mover, in [-1, 1]; None: no evaluation) that a
    person reads from a pattern agent's ``report``; ``made`` and ``blocked`` name the
    shape its move makes and the one it takes from the opponent (:func:`move_shapes`).

    Alpha-beta scores beyond ``WIN_THRESHOLD`` are forced results ``WIN_SCORE - plies``
    away (plies counted from the mover's move), read as the moves of the winner: "wins
    in N" (the mover's moves, its five included) or "loses in N" (the opponent's). A
    VCF's score counts its line's plies the same way. Other alpha-beta scores are
    pattern values, squashed to a value by :data:`POSITION_SCALE`. The heuristic's
    score is a weighted sum of two point values and has no meaning as a value: its
    caption is the shapes alone.
    """
    if report.reason == "opening":
        return "opens at the centre", None
    work = f"{report.nodes} nodes"
    if report.depth:
        work = f"depth {report.depth}, {work}"
    if abs(report.score) > WIN_THRESHOLD:
        plies = WIN_SCORE - abs(report.score)
        if report.score < 0:
            return f"loses in {max(1, plies // 2)} ({work})", -1.0
        how = " by continuous fours (VCF)" if report.reason == "vcf" else ""
        return f"wins in {(plies + 1) // 2}{how} ({work})", 1.0
    action = [f"makes {_article(made)}"] if made else []
    action += [f"blocks {_article(blocked)}"] if blocked else []
    if report.reason == "pattern":
        return ", ".join(action) or "builds on the best pattern point", None
    value = math.tanh(report.score / POSITION_SCALE)
    standing = "even" if abs(value) < 0.1 else ("ahead" if value > 0 else "behind")
    words = [standing, SEARCH_REASONS.get(report.reason, ""), *action, work]
    return "; ".join(word for word in words if word), round(value, 3)


def _article(shape: str) -> str:
    return f"an {shape}" if shape[0] in "aeiou" else f"a {shape}"


def move_shapes(board: Board, action: int) -> tuple[str, str]:
    """The strongest shapes a stone of the side to move on empty ``action`` makes for
    it and takes from the opponent (the same stone blocks the opponent's line), by
    name ("five", "double four", "four-three", "open four", ..., "three"), or "" for
    less than a three."""
    mover = board.to_move
    return _shape_name(board, action, mover), _shape_name(
        board, action, other_color(mover)
    )


def _shape_name(board: Board, action: int, color: int) -> str:
    config = board.config
    table = shapes.build_shape_table(config.win_length)
    size, length, rule = config.board_size, config.win_length, config.rule.code
    found = [
        int(line_shape(board.cells, size, length, rule, table, action, line, color))
        for line in range(4)
    ]
    fours = sum(shape in (shapes.FOUR, shapes.OPEN_FOUR) for shape in found)
    open_threes = found.count(shapes.OPEN_THREE)
    if shapes.FIVE in found:
        return "five"
    if fours >= 2:
        return "double four"
    if shapes.OPEN_FOUR in found:
        return "open four"
    if fours and open_threes:
        return "four-three"
    if open_threes >= 2:
        return "double three"
    best = max(found)
    return shapes.SHAPE_NAMES[best] if best >= shapes.THREE else ""


def final_insight(agent: object, board: Board) -> Insight | None:
    """What ``agent`` reported about the move it just chose on ``board`` (the position
    before the move), or None."""
    board_size = board.config.board_size
    summary = getattr(agent, "last_summary", None)
    if summary is not None and hasattr(summary, "visits"):
        caption = f"{summary.simulations} simulations in {summary.seconds:.2f} s"
        return _tree_insight(
            summary.visits,
            summary.root_value,
            list(summary.principal_variation),
            caption,
            board_size,
        )
    report = getattr(agent, "last_report", None)
    if isinstance(report, SearchReport):
        heat = np.zeros(board_size * board_size)
        heat[int(report.move)] = 1.0
        made, blocked = move_shapes(board, int(report.move))
        caption, value = describe_report(report, made, blocked)
        overlay = Overlay(heatmap=heat, value=value, text=caption)
        return overlay_insight(overlay, board_size, list(report.principal_variation))
    return None
