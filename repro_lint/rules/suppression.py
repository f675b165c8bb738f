"""Findings about the suppression comments themselves (RPL002).

RPL002 is not found by the traversal: the engine calls :func:`unused_noqa` after it has
applied the ``noqa`` comments to the file's findings, because only then is it known which
comment suppressed what (``NoqaDirective.used``).
"""

from __future__ import annotations

import re
from typing import Iterable, List, Optional, Sequence

from ..diagnostics import SAFE, Diagnostic, Edit, Fix
from ..noqa import NOQA_LINE, NoqaDirective, Suppressions
from ..source import line_offsets
from .base import RULES, Rule

#: codes of other tools (flake8's E501, ruff's F401) are never ours to judge
OWN_PREFIX = "RPL"


class UnusedNoqa(Rule):
    """A ``# noqa: RPLnnn`` comment that suppresses nothing on its line."""

    code = "RPL002"
    name = "unused-noqa"
    message = "unused `noqa` directive ({details}): remove these codes from the comment, they suppress nothing on this line"
    default = False
    fix = SAFE
    fix_message = "Remove the unused codes from the `noqa` comment"
    #: the engine runs it on files that have a noqa comment (any spelling of the word)
    triggers = ("noqa", "NOQA", "Noqa", "NoQA")
    reads_comments = True
    found_by = "engine"
    never_baselined = "remove the stale code instead"


def _codes_in_order(directive: NoqaDirective) -> List[str]:
    match = NOQA_LINE.match(directive.text)
    text = match.group("codes") if match else None
    return [c for c in re.split(r"[,\s]+", text.strip()) if c] if text else []


def _physical_line(text: str, offsets: Sequence[int], line: int) -> str:
    start = offsets[line - 1]
    end = offsets[line] if line < len(offsets) else len(text)
    return text[start:end].rstrip("\r\n")


def _fix(directive: NoqaDirective, kept: List[str], line_text: str) -> Optional[Fix]:
    line, start = directive.line, directive.column
    end = start + len(directive.text)
    if kept:
        match = NOQA_LINE.match(directive.text)
        assert match is not None
        prefix = directive.text[: match.start("codes")]
        return Fix(UnusedNoqa.fix_message, (Edit((line, start), (line, end), prefix + ", ".join(kept)),), SAFE)
    if line_text[end:].strip():
        return None  # an explanation follows the codes: only the author can rewrite that comment
    cut = len(line_text[:start].rstrip())
    return Fix("Remove the unused `noqa` comment", (Edit((line, cut), (line, len(line_text)), ""),), SAFE)


def unused_noqa(path: str, text: str, suppressions: Suppressions, enabled: Iterable[str]) -> List[Diagnostic]:
    """RPL002 for every ``# noqa: CODES`` comment listing repro-lint codes that suppressed
    nothing in this run. ``suppressions`` must have been applied to the file's findings
    already. Like ruff's RUF100, a code is reported when its rule is enabled and found nothing
    on the line, when its rule is not enabled in this run, or when no rule has that code.
    A bare ``# noqa`` and the codes of other tools are left alone."""
    registry = list(RULES)  # complete: the linter loaded every rule module before any file
    enabled = set(enabled)
    offsets: Optional[List[int]] = None
    found = []
    for line, directive in sorted(suppressions.lines.items()):
        if directive.codes is None:
            continue
        unused, non_enabled, unknown, kept = [], [], [], []
        for written in _codes_in_order(directive):
            code = written.upper()
            if not code.startswith(OWN_PREFIX) or code == UnusedNoqa.code:
                kept.append(written)
            elif any(used.startswith(code) for used in directive.used):
                kept.append(written)
            else:
                matching = [c for c in registry if c.startswith(code)]
                if not matching:
                    unknown.append(code)
                elif any(c in enabled for c in matching):
                    unused.append(code)
                else:
                    non_enabled.append(code)
        if not (unused or non_enabled or unknown):
            continue
        parts = []
        for label, codes in (("unused", unused), ("non-enabled", non_enabled), ("unknown", unknown)):
            if codes:
                parts.append(f"{label}: {', '.join(codes)}")
        message = UnusedNoqa.message.format(details="; ".join(parts))
        if offsets is None:
            offsets = line_offsets(text)
        fix = _fix(directive, kept, _physical_line(text, offsets, line))
        start = (line, directive.column)
        end = (line, directive.column + len(directive.text))
        found.append(Diagnostic(UnusedNoqa.code, message, path, start, end, fix, line))
    return found
