"""The ``gomoku`` command. Each subcommand lives in its own module of this package."""
