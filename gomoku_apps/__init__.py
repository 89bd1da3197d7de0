"""The programs built on gomoku_env and agents: the ``gomoku`` command, the pygame GUI,
the arena and rating ladder, and the Gomocup brain.

This is the top layer: it imports ``agents`` and ``gomoku_env``; neither imports it
(an import-linter layers contract in pyproject.toml checks this in ``make test``).
"""
