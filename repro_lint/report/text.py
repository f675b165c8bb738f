"""``path:line:col: RPLnnn message`` lines, then a one-line summary (ruff's words)."""

from __future__ import annotations

from collections import Counter
from typing import List, Mapping, TextIO

from ..diagnostics import Diagnostic
from ..rules import all_rules
from . import ReportOptions, readable_path, register
from .style import BOLD, CYAN, PLAIN, RED, Style


def format_line(diag: Diagnostic, style: Style = PLAIN) -> str:
    line, col = diag.shown(diag.start)
    cell = "" if diag.cell is None else f"cell {diag.cell}{style(':', CYAN)}"  # ruff's notebook positions
    where = f"{style(readable_path(diag.path), BOLD)}{style(':', CYAN)}{cell}{line}{style(':', CYAN)}{col + 1}{style(':', CYAN)}"
    return f"{where} {style(diag.code, BOLD, RED)} {diag.message}"


def summary(diagnostics: List[Diagnostic], options: ReportOptions) -> List[str]:
    lines = []
    if options.fixed:
        lines.append(f"Fixed {options.fixed} error{'s' if options.fixed != 1 else ''}{':' if options.fixes else '.'}")
        lines.extend(fixes_applied(options.fixes or {}))
    if not diagnostics:
        if not options.fixed:
            lines.append("All checks passed!")
        return lines
    count = len(diagnostics)
    lines.append(f"Found {count} error{'s' if count != 1 else ''}.")
    fixable = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability == "safe")
    unsafe = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability == "unsafe")
    if fixable:
        lines.append(f"[*] {fixable} fixable with the `--fix` option.")
    if unsafe:
        lines.append(f"{unsafe} more fixable with the `--fix --unsafe-fixes` option.")
    return lines


def fixes_applied(fixes: "Mapping[str, Mapping[str, int]]") -> List[str]:
    """``--show-fixes``: each file, then the count of each rule's fixes (ruff's layout)."""
    rules = all_rules()
    lines = []
    for path in sorted(fixes):
        lines.append(f"- {path}:")
        for code, count in sorted(fixes[path].items()):
            name = f" ({rules[code].name})" if code in rules else ""
            lines.append(f"    {count} × {code}{name}")
    return lines


def statistics(diagnostics: List[Diagnostic]) -> List[str]:
    rules = all_rules()
    counts = Counter(d.code for d in diagnostics)
    fixable = {d.code for d in diagnostics if d.fix is not None}
    width = max((len(str(n)) for n in counts.values()), default=1)
    lines = []
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        name = rules[code].name if code in rules else ""
        mark = "[*] " if code in fixable else "    "
        lines.append(f"{count:>{width}}\t{code}\t{mark}{name}")
    return lines


@register("concise")
@register("text")
def report_text(diagnostics: List[Diagnostic], out: TextIO, options: ReportOptions) -> None:
    if options.statistics:
        body = statistics(diagnostics)
    else:
        style = Style.for_stream(out)
        body = [format_line(d, style) for d in diagnostics]
    for line in body:
        out.write(line + "\n")
    if not options.quiet and not options.statistics:
        for line in summary(diagnostics, options):
            out.write(line + "\n")
