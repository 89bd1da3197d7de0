"""The Gomocup brain: any agent behind the Gomocup text protocol on stdin/stdout."""

from gomoku_apps.brain.brain import Brain, run_brain

__all__ = ["Brain", "run_brain"]
