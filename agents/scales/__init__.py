"""Rating scales: the shipped anchors with their ratings, and a rating against them.

:mod:`agents.scales.reference` reads a scale (its anchors' specs, ratings and
margins, shipped under ``anchors/``), :mod:`agents.scales.anchored_fit` rates one
player against anchors whose ratings are held fixed, and :mod:`agents.scales.stats`
gives a match's score interval and Elo difference. They sit with the agents, below
the programs, because agents use them too: the curriculum opponent
(:mod:`agents.curriculum`) picks its anchors from a scale and follows the learner
with the same rating that ``gomoku rate`` gives.
"""
