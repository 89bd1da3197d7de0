"""Windows for people: play against agents (or each other) and replay saved games.

This package sits above the agents (it runs them), beside the CLI; the rules core, the
env and the agents never import it. pygame is imported by its window modules, which the
``gomoku play`` and ``gomoku replay`` commands load only when they run.
"""
