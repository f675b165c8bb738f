"""Helpers for the fixer tests: rules that exist only inside one test, and in-process fixing."""

from __future__ import annotations

import textwrap
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, Type

from repro_lint.config import Settings
from repro_lint.context import ProjectContext
from repro_lint.diagnostics import SAFE
from repro_lint.engine import Linter
from repro_lint.fixer import FixOutcome, fix_source
from repro_lint.rules.base import RULES, Rule
from repro_lint.source import Source


@contextmanager
def temporary_rules(*specs: dict) -> Iterator[List[Type[Rule]]]:
    """Register rules built from ``specs`` (class attributes and methods) for one test only, so
    the rule book and README tests never see them."""
    made: List[Type[Rule]] = []
    try:
        for spec in specs:
            attrs = {"name": f"probe-{spec['code'].lower()}", "message": "probe finding", "fix": SAFE,
                     "fix_message": "probe fix", "triggers": ("import", "=", "("),
                     # a probe runs on any file with one of those, even only in a comment
                     "reads_comments": True}
            attrs.update(spec)
            made.append(type(f"Probe{spec['code']}", (Rule,), attrs))
        yield made
    finally:
        for rule in made:
            RULES.pop(rule.code, None)


def linter_for(root: Path, select: Optional[List[str]] = None, files: Sequence[Path] = (), **settings) -> Linter:
    config = Settings(root=root, select=select, **settings)
    return Linter(config, ProjectContext(config, files))


def fix_text(root: Path, code: str, select: List[str], filename: str = "train.py", unsafe: bool = True,
             dedent: bool = True, run: Sequence[str] = (), **settings) -> FixOutcome:
    """Fix ``code`` in memory as ``root/filename`` with the ``select``ed rules; ``run``: the
    other files of ``root`` that the run lints too (the project context's files)."""
    path = root / filename
    text = textwrap.dedent(code) if dedent else code
    path.write_text(text, encoding="utf-8")
    files = [path, *(root / name for name in run)] if run else []
    return fix_source(linter_for(root, select, files, **settings), str(path), Source(text, "utf-8"), unsafe=unsafe)


def apply_fixes(source: str, diagnostics, unsafe: bool = False) -> str:
    """One pass of the real fixer over ``source``: the selected fixes of ``diagnostics`` applied
    exactly as ``--fix`` would apply them (overlaps deferred, identical edits once)."""
    from repro_lint.fixer import apply_text_edits, is_selected, plan

    step = plan(source, [d for d in diagnostics if is_selected(d, unsafe)])
    assert not step.deferred and not step.broken, (step.deferred, step.broken)
    return apply_text_edits(source, step.edits)
