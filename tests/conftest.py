"""Shared helpers: lint a snippet in-process, or run the real command in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import List, Optional, Sequence

import pytest

from repro_lint.config import Settings
from repro_lint.context import ProjectContext
from repro_lint.diagnostics import Diagnostic
from repro_lint.engine import Linter

REPO = Path(__file__).resolve().parent.parent


def lint_files_in(paths: Sequence[Path], root: Path, select: Optional[List[str]] = None, **settings) -> List[Diagnostic]:
    """Lint files in-process, as the CLI would with the given settings."""
    config = Settings(root=root, select=select, **settings)
    linter = Linter(config, ProjectContext(config, paths))
    diagnostics = []
    for path in paths:
        result = linter.lint_path(path)
        assert not result.errors, result.errors
        diagnostics.extend(result.diagnostics)
    return sorted(diagnostics, key=lambda d: d.sort_key())


@pytest.fixture
def lint(tmp_path: Path):
    """``lint(code, filename="snippet.py", select=None, **settings) -> [Diagnostic]``."""

    def run(code: str, filename: str = "snippet.py", select: Optional[List[str]] = None, **settings) -> List[Diagnostic]:
        path = tmp_path / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code), encoding="utf-8")
        return lint_files_in([path], tmp_path, select, **settings)

    return run


def codes(diagnostics: Sequence[Diagnostic]) -> List[str]:
    return [d.code for d in diagnostics]


def run_cli(
    args: Sequence[str], cwd: Path, env: Optional[dict] = None, stdin: Optional[str] = None, timeout: float = 300
) -> subprocess.CompletedProcess:
    """Run ``python -m repro_lint`` for real (the same code path as the console script)."""
    return subprocess.run(
        [sys.executable, "-m", "repro_lint", *args],
        cwd=str(cwd),
        env=_child_env(env),
        capture_output=True,
        text=True,
        input=stdin,
        timeout=timeout,
    )


def run_python(code: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with this checkout importable (what a run imports
    shows there: ``'libcst' in sys.modules``)."""
    return subprocess.run(
        [sys.executable, "-c", code], cwd=str(cwd), env=_child_env(None), capture_output=True, text=True,
        timeout=timeout,
    )


def pythonpath() -> str:
    """A child process's PYTHONPATH: the checkout first, then this process's (where the
    dependencies may be)."""
    return os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)


def _child_env(env: Optional[dict]) -> dict:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = pythonpath()
    environment.pop("NO_COLOR", None)
    environment.pop("FORCE_COLOR", None)
    if env:
        environment.update(env)
    return environment


def write(root: Path, files: dict) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
