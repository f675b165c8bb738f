"""``repro-lint --add-noqa``: adopt the linter on an existing code base today, fix later.

Every reported line gets ``# noqa: RPLnnn`` (merged into a ``# noqa: X`` comment already there:
``# noqa: X, RPLnnn``), so the next run is clean and only new hazards are reported. The comment
goes where the engine looks for it: on the line where the finding starts.

A line that cannot end with a comment is left alone and listed: one that ends inside a
multi-line string (the comment would become part of the string) or with a backslash
continuation (a comment there is a syntax error). Unreadable files (RPL001) and stale
comments (RPL002) are never baselined: they need the file to be fixed, not hidden.
Files are written atomically, in their own encoding and line endings, and only if the result
still parses.
"""

from __future__ import annotations

import ast
import warnings
import io
import sys
import tokenize
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, TextIO, Tuple

from .diagnostics import Diagnostic, InternalError
from .noqa import parse_suppressions
from .rules import all_rules
from .source import SourceError, line_offsets, read_source, write_atomic



@dataclass
class Skipped:
    diag: Diagnostic
    reason: str

    def __str__(self) -> str:
        d = self.diag
        return f"{d.path}:{d.start[0]}:{d.start[1] + 1}: {d.code} not baselined: {self.reason}"


@dataclass
class Baseline:
    added: int = 0
    files: int = 0
    skipped: List[Skipped] = field(default_factory=list)


def commentable_lines(text: str) -> Optional[Set[int]]:
    """Lines that may end with a comment (they hold a NEWLINE or NL token); None if the
    file does not tokenize."""
    lines: Set[int] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT):
                lines.add(tok.start[0])
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return lines


def _codes_missing(codes: Sequence[str], present: Optional[frozenset]) -> List[str]:
    if present is None:
        return []
    return [c for c in codes if not any(c.startswith(p) for p in present)]


def add_noqa_to_text(text: str, diagnostics: Sequence[Diagnostic]) -> Tuple[str, int, List[Skipped]]:
    """The text with noqa comments for ``diagnostics`` (all from this text), the number of
    comments added or extended, and the findings that could not be baselined."""
    skipped: List[Skipped] = []
    wanted: Dict[int, List[Diagnostic]] = defaultdict(list)
    rules = all_rules()
    for diag in diagnostics:
        rule = rules.get(diag.code)
        if rule is not None and rule.never_baselined:
            skipped.append(Skipped(diag, rule.never_baselined))
        else:
            wanted[diag.noqa_row].append(diag)
    if not wanted:
        return text, 0, skipped
    commentable = commentable_lines(text)
    offsets = line_offsets(text)
    suppressions = parse_suppressions(text)
    inserts: List[Tuple[int, int, str]] = []  # (start, end, replacement)
    for line in sorted(wanted):
        diags = wanted[line]
        codes = sorted({d.code for d in diags})
        if commentable is None or line not in commentable or not 1 <= line <= len(offsets):
            start = offsets[line - 1] if 1 <= line <= len(offsets) else len(text)
            end = offsets[line] if line < len(offsets) else len(text)
            physical = text[start:end].rstrip("\r\n")
            reason = (
                "the line ends with a backslash continuation, where a comment is a syntax error"
                if physical.endswith("\\")
                else "the line ends inside a multi-line string; fix the finding or use per-file-ignores"
            )
            skipped.extend(Skipped(d, reason) for d in diags)
            continue
        line_start = offsets[line - 1]
        line_end = offsets[line] if line < len(offsets) else len(text)
        physical = text[line_start:line_end].rstrip("\r\n")
        directive = suppressions.lines.get(line)
        if directive is not None:
            missing = _codes_missing(codes, directive.codes)
            if not missing:
                continue
            at = line_start + directive.column + len(directive.text)  # after the codes listed
            inserts.append((at, at, ", " + ", ".join(missing)))
        else:
            code_end = line_start + len(physical.rstrip())
            inserts.append((code_end, line_start + len(physical), f"  # noqa: {', '.join(codes)}"))
    new = text
    for start, end, content in sorted(inserts, reverse=True):
        new = new[:start] + content + new[end:]
    return new, len(inserts), skipped


def add_noqa(diagnostics: Sequence[Diagnostic]) -> Tuple[Baseline, List[InternalError]]:
    """Add the comments in every file that reported something; write each file atomically."""
    baseline = Baseline()
    errors: List[InternalError] = []
    by_path: Dict[str, List[Diagnostic]] = defaultdict(list)
    for diag in diagnostics:
        by_path[diag.path].append(diag)
    for path, diags in sorted(by_path.items()):
        try:
            source = read_source(Path(path))
        except SourceError as exc:
            baseline.skipped.extend(Skipped(d, f"cannot read the file: {exc.message}") for d in diags)
            continue
        new, added, skipped = add_noqa_to_text(source.text, diags)
        baseline.skipped.extend(skipped)
        if not added:
            continue
        try:
            with warnings.catch_warnings():  # warnings about the user's code are not ours to print
                warnings.simplefilter("ignore")
                ast.parse(new)
        except (SyntaxError, ValueError) as exc:  # never write a file that no longer parses
            errors.append(InternalError(path, f"--add-noqa would break the file ({exc}); it was left unchanged"))
            continue
        try:
            write_atomic(Path(path), source.encode(new))
        except OSError as exc:
            errors.append(InternalError(path, f"cannot write the file: {exc.strerror or exc}"))
            continue
        baseline.added += added
        baseline.files += 1
    return baseline, errors


def add_noqa_command(diagnostics: Sequence[Diagnostic], errors: Sequence[InternalError], out: TextIO = sys.stdout) -> int:
    """``--add-noqa`` for the CLI: exit 0 when every finding is baselined, 1 when some could
    not be, 2 on an internal error."""
    baseline, write_errors = add_noqa(diagnostics)
    for skipped in baseline.skipped:
        out.write(f"{skipped}\n")
    plural = "s" if baseline.added != 1 else ""
    files = f" in {baseline.files} file{'s' if baseline.files != 1 else ''}" if baseline.files else ""
    out.write(f"Added {baseline.added} noqa directive{plural}{files}.\n")
    all_errors = list(errors) + write_errors
    for error in all_errors:
        print(f"repro-lint: {error}", file=sys.stderr)
    if all_errors:
        return 2
    return 1 if baseline.skipped else 0
