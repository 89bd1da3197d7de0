"""The documentation site builds offline: no external fonts, search index inlined."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_loads_no_fonts_or_styles_from_the_network(tmp_path: Path) -> None:
    pytest.importorskip("material", reason="the docs extra is not installed")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "-d", str(tmp_path)],
        cwd=ROOT,
        check=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": ""},
    )
    page = (tmp_path / "index.html").read_text()
    external = re.findall(r'<link[^>]*href="(https?://[^"]*)"', page)
    assert not [url for url in external if "font" in url or url.endswith(".css")]
    assert "fonts.googleapis" not in page
    assert (tmp_path / "search" / "search_index.js").is_file()  # inlined for file://
