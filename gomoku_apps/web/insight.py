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
  line they expect and its score.
- agents that keep nothing (random, engines) show no overlay.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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


def final_insight(agent: object, board_size: int) -> Insight | None:
    """What ``agent`` reported about the move it just chose, or None."""
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
    if report is not None and hasattr(report, "principal_variation"):
        heat = np.zeros(board_size * board_size)
        heat[int(report.move)] = 1.0
        caption = (
            f"{report.reason}: score {report.score}, depth {report.depth}, "
            f"{report.nodes} nodes"
        )
        overlay = Overlay(heatmap=heat, text=caption)
        return overlay_insight(overlay, board_size, list(report.principal_variation))
    return None
