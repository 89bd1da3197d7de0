"""Agent specs and flags: agents named by text, and command-line flags from fields.

Options themselves are dataclass fields declared with :func:`gomoku_env.fields.option`.
:mod:`agents.specs.flags` makes command-line flags from those fields.
:mod:`agents.specs.registry` holds the agents by spec name,
:mod:`agents.specs.builtin_specs` registers the built-in ones (with
:mod:`agents.specs.python_agent` for ``python:MODULE:NAME``), and
:mod:`agents.specs.parse` turns ``NAME[:key=value,...]`` into an agent
(:func:`agents.specs.parse.make_agent`).
"""
