"""The wheel carries everything a plain ``pip install`` needs: the rule book (so that
``repro-lint rule CODE`` works), the console script and the flake8 entry point."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(REPO), "-w", str(out)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    (built,) = out.glob("repro_lint-*.whl")
    return zipfile.ZipFile(built)


def test_the_rule_book_ships_inside_the_wheel(wheel):
    pages = {Path(name).name for name in wheel.namelist() if name.startswith("repro_lint/_rulebook/")}
    assert pages == {p.name for p in (REPO / "rules").glob("RPL*.md")}


def test_entry_points(wheel):
    (name,) = [n for n in wheel.namelist() if n.endswith("entry_points.txt")]
    text = wheel.read(name).decode()
    assert "repro-lint = repro_lint.cli:entry" in text
    assert "[flake8.extension]" in text and "RPL = repro_lint.flake8:Plugin" in text


def test_no_tests_or_examples_in_the_wheel(wheel):
    assert not [n for n in wheel.namelist() if n.startswith(("tests/", "examples/", "benchmarks/"))]


def test_the_language_server_ships_with_its_extra(wheel):
    assert {"repro_lint/server/__init__.py", "repro_lint/server/documents.py", "repro_lint/server/notebooks.py"} <= set(wheel.namelist())
    (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    metadata = wheel.read(name).decode()
    assert "Provides-Extra: lsp" in metadata
    assert any(line.startswith("Requires-Dist: pygls") and line.replace('"', "'").endswith("extra == 'lsp'") for line in metadata.splitlines())
