"""The docs cannot drift from the code: every verb, extra and agent option is named."""

from __future__ import annotations

from importlib.metadata import metadata
from pathlib import Path

import pytest

from agents.specs import parse as specs
from gomoku_apps.cli.main import SUBCOMMANDS

ROOT = Path(__file__).resolve().parents[1]
DOCS = "\n".join(
    page.read_text(encoding="utf-8") for page in (ROOT / "docs").glob("*.md")
)


@pytest.mark.parametrize("verb", SUBCOMMANDS)
def test_every_verb_is_in_the_command_reference_and_the_readme(verb):
    reference = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    table = reference.split("\n## ")[0]
    assert f"[`{verb}`](#gomoku-{verb})" in table
    assert f"## `gomoku {verb}`" in reference
    assert f"`gomoku {verb}`" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_extra_is_in_the_installation_table():
    install = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    extras = metadata("gomoku_env").get_all("Provides-Extra")
    assert "render" in extras
    for extra in extras:
        assert f"| `{extra}` |" in install, extra


@pytest.mark.parametrize("name", specs.registered_names())
def test_every_agent_option_is_named_in_the_docs(name):
    for option in specs.option_help(name):
        assert f"`{option.name}`" in DOCS or f"{option.name}=" in DOCS, (
            name,
            option.name,
        )
