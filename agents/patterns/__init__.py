"""Compiled pattern and VCF kernels shared by the classic agents and the tree search.

:mod:`~agents.patterns.shapes` judges a line segment (five, four, three, ...);
:mod:`~agents.patterns.point_shapes` turns a point's four lines into its shape and
renju bans; :mod:`~agents.patterns.pattern_state` keeps those shapes up to date as
stones are placed and removed; :mod:`~agents.patterns.values` scores points for move
ordering and priors; :mod:`~agents.patterns.threats` finds forced wins by fours (VCF).
The alpha-beta and heuristic agents (:mod:`agents.classic`) and the tree search
(:mod:`agents.search`) both import them; neither imports the other.
"""
