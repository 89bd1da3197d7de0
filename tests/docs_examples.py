"""Read the code examples out of the README and the documentation pages.

The docs tests run every ```python block and parse every ``gomoku`` command line of
every ```bash block, so an example that drifts from the code fails the suite. A block
that cannot run here (it needs a window, an external engine or hours of training) is
marked on the line before its fence with ``<!-- skip: the reason -->``, which the test
report shows.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(?P<indent> *)```(?P<language>[\w-]*)\s*$")
SKIP = re.compile(r"^\s*<!--\s*skip:\s*(?P<reason>.+?)\s*-->\s*$")


@dataclass(frozen=True)
class CodeBlock:
    """One fenced block: where it is, its language, its code and any skip reason."""

    path: Path
    line: int
    language: str
    code: str
    skip_reason: str | None

    @property
    def name(self) -> str:
        """``FILE:LINE``, relative to the repository, for test ids."""
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def documentation_files() -> list[Path]:
    """README.md and every Markdown page of the site."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def code_blocks(path: Path) -> list[CodeBlock]:
    """The fenced code blocks of the Markdown file ``path``, in order."""
    blocks: list[CodeBlock] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        indent = len(opening["indent"])
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = "\n".join(line[indent:] for line in lines[index + 1 : end])
        blocks.append(
            CodeBlock(
                path, index + 1, opening["language"], body, _skip_reason(lines, index)
            )
        )
        index = end + 1
    return blocks


def _skip_reason(lines: list[str], fence: int) -> str | None:
    """The reason of a ``<!-- skip: ... -->`` comment just above the fence, if any."""
    previous = fence - 1
    while previous >= 0 and not lines[previous].strip():
        previous -= 1
    if previous < 0:
        return None
    match = SKIP.match(lines[previous])
    return match["reason"] if match else None


def all_blocks(language: str) -> list[CodeBlock]:
    """Every block in ``language`` across the README and the pages."""
    return [
        block
        for path in documentation_files()
        for block in code_blocks(path)
        if block.language == language
    ]


def gomoku_commands(shell: str) -> list[list[str]]:
    """The argument lists of the ``gomoku`` commands in a shell block.

    Continued lines are joined, ``#`` comments and a leading ``$`` prompt dropped, and
    each stage of a pipeline that starts with ``gomoku`` counts (``.venv/bin/gomoku``
    too); lines that show output rather than commands are ignored.
    """
    commands = []
    for line in shell.replace("\\\n", " ").splitlines():
        words = shlex.split(line.removeprefix("$ ").strip(), comments=True)
        stage: list[str] = []
        for word in [*words, "|"]:
            if word in ("|", "&&", ";"):
                if stage and Path(stage[0]).name == "gomoku":
                    commands.append(stage[1:])
                stage = []
            else:
                stage.append(word)
    return commands
