"""Apply the edits of diagnostics to a source text (enough to check fixes in tests)."""

from __future__ import annotations

from typing import Iterable, List

from repro_lint.diagnostics import Diagnostic, Edit


def offset(lines: List[str], line: int, col: int) -> int:
    return sum(len(text) for text in lines[: line - 1]) + col


def apply_fixes(source: str, diagnostics: Iterable[Diagnostic], unsafe: bool = False) -> str:
    edits = []
    for diag in diagnostics:
        if diag.fix is None or (diag.fix.applicability == "unsafe" and not unsafe):
            continue
        edits.extend(diag.fix.edits)
    lines = source.splitlines(keepends=True)
    unique: List[Edit] = sorted(set(edits), key=lambda e: (e.start, e.end), reverse=True)
    for edit in unique:
        start, end = offset(lines, *edit.start), offset(lines, *edit.end)
        source = source[:start] + edit.content + source[end:]
        lines = source.splitlines(keepends=True)
    return source
